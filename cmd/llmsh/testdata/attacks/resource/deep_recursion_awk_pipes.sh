# A recursion through awk's output pipes (print | "cmd"),
# whose commands run on goroutines of their own: each level started on a
# fresh stack, so the call-depth limit never fired (over 200 s, 800 MB,
# session 16, red team). Their context now carries awk's stack depth.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 60s
#@ status: 125
#@ stderr: maximum call depth exceeded
#@ no-stderr: timed out
echo 'BEGIN { print "x" | "awk -f r.awk" }' > r.awk
awk -f r.awk
