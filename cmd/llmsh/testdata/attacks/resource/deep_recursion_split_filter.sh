# A recursion through split --filter (session 18), whose command runs on
# a goroutine of its own beside split: each level started on a fresh
# stack, so the call-depth limit never fired (session 19, red team: 3000
# levels and 370 MB in 10 s, on without bound but for --timeout). The
# goroutine now carries the depth of split's stack (Env.GoCtx), as
# xargs -P's and awk's command pipes do.
# Its 0.5-0.9 s of CPU (each level's goroutines and context lookups)
# took over 10 s of wall at load 25 (session 26: "timed out"): a limit
# that load is far from; an unbounded recursion still meets it.
#@ timeout: 60s
#@ status: 125
#@ stderr: maximum call depth exceeded
#@ no-stderr: timed out
echo 'echo a | split -l 1 --filter="sh r.sh"' > r.sh
sh r.sh
