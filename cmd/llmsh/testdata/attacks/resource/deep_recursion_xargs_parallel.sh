# A recursion through xargs -P, whose commands run on goroutines of their
# own: each level started on a fresh stack, so the call-depth limit never
# fired and the run went on without bound (over 100 s, 575 MB, session
# 16, red team). The goroutines now carry the depth of the stack that
# started them, as a pipeline's elements do.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 60s
#@ status: 125
#@ stderr: maximum call depth exceeded
#@ no-stderr: timed out
echo 'echo a | xargs -P 2 sh r.sh' > r.sh
sh r.sh
