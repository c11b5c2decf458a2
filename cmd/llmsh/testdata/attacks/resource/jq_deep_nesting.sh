# Values nested millions deep, built by a jq filter (`[.]` in a reduce):
# writing them (tojson, the output), comparing them (==, sort), contains,
# flatten, `*` of objects and a setpath along a path of millions of steps
# each recursed once per level in Go and overflowed its stack (session 12:
# `fatal error: stack overflow` with a stack trace at 6 million levels,
# the CLI ended and with it any library host). Now the writers stop at
# jq's print depth (`<skipped: too deep>`), the others fail past 100000
# levels with a jq error that `try` catches. 300000 levels, three times
# that bound, prove it as 6 million did, in a tenth of the CPU.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 100s
#@ status: 5
#@ stdout: 20021
#@ stdout: "value nested too deeply (more than 100000 levels)"
#@ stdout: skipped=1 jq=5 setpath=5
#@ stderr: jq: error (at <unknown>): value nested too deeply (more than 100000 levels)
jq -nc 'reduce range(300000) as $i (null; [.]) |
  (tojson | length), (try (. == .) catch .), (try contains(.) catch .),
  (try flatten catch .), ., (. == .)' > out.json; a=$?
head -n 4 out.json | sort -u
b=$(grep -c 'skipped: too deep' out.json)
jq -n 'null | setpath([range(300000) | 0]; 1)'; c=$?
rm out.json
echo "skipped=$b jq=$a setpath=$c"
exit $c
