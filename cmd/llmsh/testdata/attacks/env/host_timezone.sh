# The host's time zone (session 19, red team): llmsh's own TZ (the harness
# gives it Asia/Tokyo) or /etc/localtime showed through times formatted in
# Go's time.Local: ls -l --full-time and --time-style, jq's localtime and
# strflocaltime printed +0900 and JST. A script's zone is its own TZ (UTC
# when unset), as date, stat, find and tar already had it.
#@ stdout: 2020-01-01 00:00:00.000000000 +0000 f
#@ stdout: 00:00:UTC f
#@ stdout: jq 00 UTC
#@ stdout: mktime 0
#@ stdout: tz 09 JST
#@ no-stdout: +0900
#@ no-stdout: 09:00:JST
touch -d '2020-01-01 00:00' f
ls -l --full-time f
ls -l --time-style=+%H:%M:%Z f
ls -l --time-style=long-iso f
echo "jq $(jq -rn '0|strflocaltime("%H %Z")')"
echo "mktime $(jq -rn '0|localtime|mktime')"
echo "tz $(TZ=Asia/Tokyo jq -rn '0|strflocaltime("%H %Z")')"
awk 'BEGIN { print strftime("%H %Z", 0) }'
printf '%(%H %Z)T\n' 0
find f -printf '%t %TZ\n'
tree -D --timefmt='%H:%Z' f
