# TZ, LANG and LC_* from the host are not applied or shown.
#@ status: any
#@ no-stdout: @OUT@
echo "[$TZ] [$LANG] [$LC_ALL]"
date -u +%Z
locale
