# A list a && b || c … of 200000 commands, made at run time and run by
# eval (the nesting check counts brackets, not operators): the parser
# makes it a tree as deep as the list is long, and running it recursed
# once per operator, so Go's stack overflowed (fatal error: stack
# overflow: the CLI printed a Go stack trace, a serve session's process
# died, a library session took its program down). Its spine is now
# walked in a loop; bash's own recursion crashes on it.
#@ status: 0
#@ stdout: and: 0 200001
#@ stdout: or: 0 1
#@ stdout: mixed: 1
#@ stdout: set -e survived
rep() { local s=$1 n=$2 out=; while ((n > 0)); do ((n & 1)) && out+=$s; s+=$s; ((n >>= 1)); done; printf '%s' "$out"; }
n=0
eval "$(rep 'n=$((n+1)) && ' 200000)n=\$((n+1))"
echo "and: $? $n"
n=0
eval "$(rep 'n=$((n+1)) || ' 200000)n=\$((n+1))"
echo "or: $? $n"
eval "$(rep 'true && false || ' 100000)false"
echo "mixed: $?"
(set -e; eval "$(rep 'false && ' 100000)false || true"; echo "set -e survived")
