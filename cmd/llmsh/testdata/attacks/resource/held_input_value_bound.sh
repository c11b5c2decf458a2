# The commands that hold their whole input, bounded as one value (session
# 32; session 31's leftover): sort, tac, diff, diff3, csplit and look held
# a file whole (sort a run of up to 512 MiB), and sed's hold and pattern
# spaces grew by H, G, N and s without bound, all bounded only by the
# memory guard's tick: under --max-memory 64M a 100 MB line took tac,
# csplit and look to 159 MB of RSS, diff to 132 MB, and `sed -n
# 'H;$!d;x;p'` of 100 MB of short lines to 163 MB. Now the held input and
# each space stop at the bound on one value (an eighth of the memory
# limit: 4 MiB here), `value too large`, 125, as a line does (47-57 MB),
# and sort spills runs past it to temporary files (a 4.7 MB file sorts).
#@ args: -i @RO@ -o @RW@ --max-memory 32M --timeout 20s
#@ status: 125
#@ stdout: sorted 700000
#@ stderr: llmsh: limit exceeded: value too large (more than 4194304 bytes)
#@ no-stdout: never
#@ no-stderr: memory limit exceeded
seq 700000 > f
sort -T . -rn f | { read n; echo sorted $n; }
sed -n 'H;$!d;x;p' f | wc -c
echo never
