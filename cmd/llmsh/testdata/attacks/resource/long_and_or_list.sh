# A list a && b || c … or a pipeline of 300000 commands, made at run time
# and run by eval (the nesting check counts brackets, not operators): the
# parser makes it a tree as deep as the list is long, which the runner and
# every walk of the tree descended recursively, so Go's stack overflowed
# (fatal error: stack overflow: the CLI printed a Go stack trace, a serve
# session's process died, a library session took its program down; bash
# segfaults on 200000). A list of more than 50000 operators is now a
# syntax error, and one within it runs in a loop, not by recursion.
#@ heavy
#@ status: 0
# Its library and serve runs take about 10 s under the race detector,
# so a time limit that is not what it tests:
#@ timeout: 60s
#@ stdout: long and: 2
#@ stdout: long or: 2
#@ stdout: long pipe: 2
#@ stdout: and: 0 50001
#@ stdout: mixed: 1
#@ stdout: set -e survived
#@ stderr: syntax error near unexpected token `&&'
rep() { local s=$1 n=$2 out=; while ((n > 0)); do ((n & 1)) && out+=$s; s+=$s; ((n >>= 1)); done; printf '%s' "$out"; }
eval "$(rep ': && ' 300000):" 2>err.txt
echo "long and: $?"
head -c 100 err.txt >&2
eval "$(rep ': || ' 300000):" 2>/dev/null
echo "long or: $?"
eval "$(rep ': | ' 300000):" 2>/dev/null
echo "long pipe: $?"
n=0
eval "$(rep 'n=$((n+1)) && ' 50000)n=\$((n+1))"
echo "and: $? $n"
eval "$(rep 'true && false || ' 25000)false"
echo "mixed: $?"
(set -e; eval "$(rep 'false && ' 49000)false || true"; echo "set -e survived")
