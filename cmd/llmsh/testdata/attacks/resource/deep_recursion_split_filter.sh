# A recursion through split --filter (session 18), whose command runs on
# a goroutine of its own beside split: each level started on a fresh
# stack, so the call-depth limit never fired (session 19, red team: 3000
# levels and 370 MB in 10 s, on without bound but for --timeout). The
# goroutine now carries the depth of split's stack (Env.GoCtx), as
# xargs -P's and awk's command pipes do.
#@ status: 125
#@ stderr: maximum call depth exceeded
#@ no-stderr: timed out
echo 'echo a | split -l 1 --filter="sh r.sh"' > r.sh
sh r.sh
