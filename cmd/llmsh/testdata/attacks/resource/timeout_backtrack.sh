# Catastrophic backtracking under the timeout command (session 32): the
# backtracking engines of grep -P and jq (look-around, back-references),
# which cannot be cancelled, bound a search by the context's deadline,
# and timeout gave its command none, so "timeout 0.1" waited for their
# own bounds: 10 s for grep, 2 s for jq. timeout's command now has the
# limit as its deadline: the two cases take about 0.5 s, well inside the
# run's 3 s, where they took 12 s.
#@ timeout: 3s
#@ stdout: grep 124|test 124|done
a=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
echo "$a!" > lines
timeout 0.1 grep -cP '^(a+)+(?=$)' lines; printf 'grep %s|' $?
t() { name=$1; shift; timeout 0.1 jq -n "$@"; printf '%s %s|' "$name" $?; }
t test '"a" * 40 + "b" | test("(a|aa)+(?=c)\\1")'
echo done
