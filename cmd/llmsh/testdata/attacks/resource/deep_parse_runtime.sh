# Texts nested deep (a million in the report) that llmsh parses while
# the script runs, past the 1000-bracket check the script text itself
# meets: an arithmetic
# expression in a variable ($((x))), expr's and find's arguments from
# "$@", an awk program, a jq filter and a grep -P pattern. Each descent recursed once per
# level in Go: `fatal error: stack overflow` with a stack trace (session
# 12), ending the CLI, a serve worker or a library host. Each now fails
# with its own error past 10000 levels; find also reads chains of -a in
# a loop. The texts are 300000 deep: past each bound (and past jq's
# 200000 tokens) as a million were, at a third of the CPU.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 100s
#@ status: 0
#@ stdout: arith=1 expr=2 find=1 findchain=0 awk=2 awkchain=2 jq=3 jqchain=3 grep=2
#@ stderr: expression recursion level exceeded
#@ stderr: expr: syntax error: expression nested too deeply
#@ stderr: find: invalid expression; parentheses nested too deeply
#@ stderr: program nested too deeply
#@ stderr: jq: error: program nested too deeply (more than 10000 brackets)
#@ stderr: jq: error: program too long (more than 200000 tokens)
#@ stderr: grep: parentheses are too deeply nested
o=$(printf '%*s' 300000 '' | tr ' ' '('); c=${o//(/)}
x="${o}1${c}"; (echo $((x))); a=$?
set -- $(printf '( %.0s' {1..10000}) $(printf '( %.0s' {1..10000}) 1 $(printf ') %.0s' {1..10000}) $(printf ') %.0s' {1..10000})
expr "$@" > /dev/null; b=$?
set -- ${o//(/( } -name x ${c//)/) }
find . "$@"; d=$?
set -- $(printf -- '-true -a %.0s' {1..16000}) -name nothing
for i in 1 2 3 4 5; do set -- "$@" "$@"; done
find . "$@"; e=$?
awk "BEGIN { print ${o}1${c} }"; f=$?
awk "BEGIN { print 1${o//(/+1} }"; g=$?
jq -n "${o//(/[}1${c//)/]}"; h=$?
jq -n "1${o//(/+1}"; i=$?
grep -P "${o}h${c}" /dev/null; j=$?
echo "arith=$a expr=$b find=$d findchain=$e awk=$f awkchain=$g jq=$h jqchain=$i grep=$j"
