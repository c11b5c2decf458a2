# A recursion through awk's input pipes ("cmd" | getline; see
# deep_recursion_awk_pipes for print | "cmd"),
# whose commands run on goroutines of their own: each level started on a
# fresh stack, so the call-depth limit never fired (over 200 s, 800 MB,
# session 16, red team). Their context now carries awk's stack depth.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 60s
#@ status: 125
#@ stderr: maximum call depth exceeded
#@ no-stderr: timed out
echo 'BEGIN { "awk -f g.awk" | getline x }' > g.awk
awk -f g.awk
