# Bash's pattern matching overstaying the time limit (session 18, red
# team): nested extended patterns match by backtracking, in time
# exponential in the length of the subject (+(+(a))b on 20 a's and a c:
# seconds; on 40: days), and ${s//+([a-z])Q/r} tries every substring of
# s (a 16 MB value: hours). Nothing looked at the run's context: the CLI
# ended by its watchdog, a library or serve run went on. Matches now
# look at it every 4096 steps; a stopped expansion fails.
#@ timeout: 1s
#@ status: 124
#@ stderr: timed out after 1s
#@ no-stdout: not reached
shopt -s extglob
s=$(printf 'a%.0s' {1..40})c
[[ $s == +(+(a))b ]] &
case $s in +(+(a))b) ;; esac &
: "${s/+(+(a))b/x}" &
: "${s##+(+(a))b}" &
: "${s/%+(+(a))b/x}" &
: > "$s"; echo +(+(a))b &
wait
echo not reached
