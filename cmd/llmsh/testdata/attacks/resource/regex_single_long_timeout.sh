# One regexp search of a subject under a megabyte overstaying the time
# limit (session 18, red team): a search read its subject through the
# reader that looks at the run's context only from a megabyte, and grep
# and awk's RS never did, though one character costs as many steps as
# the regexp has states: [[ $z =~ [a-z]{1,1000}Q ]] of 1,040,000 bytes
# answered 86 s past a 500 ms limit, grep -E 64 s, awk's RS and nl -b p past 100 s.
# Searches now read through it from 16 KiB, and it looks every 1024
# characters.
#@ timeout: 1s
#@ status: 124
#@ stderr: timed out after 1s
#@ no-stdout: not reached
z=$(printf '%1040000s' '' | tr ' ' a)
[[ $z =~ [a-z]{1,1000}Q ]] && echo not reached
echo "$z" | grep -E '[a-z]{1,1000}[0-9]' && echo not reached
echo "$z" | sed -E 's/[a-z]{1,1000}[0-9]//' | grep -q a && echo not reached
echo "$z" | awk '/[a-z]{1,1000}[0-9]/ { print "not reached" }'
echo "$z" | awk -v RS='[a-z]{1,1000}Q' 'END { print "not reached" }'
echo "$z" | nl -b 'p[a-z]\{1,1000\}Q' | sed 's/.*/not reached/'
echo not reached
