# ${x//TEXT/r} of a pattern without a special character found its matches
# by strings.Index without looking at the run's context (session 29, red
# team): ${x// /ab} of 30 million spaces ran 4.2 s for a 2 s limit, and
# with --max-memory 128M ${x// /abcdefgh} was ended as stuck ("the
# script did not stop"). The search now looks every 4096 matches: 2.1 s.
#@ args: -i @RO@ -o @RW@ --timeout 1s
#@ status: 124
#@ answer-within: 6s
#@ no-stderr: did not stop
x=$(printf '%*s' 8000000 '')
while :; do y=${x// /ab}; done
