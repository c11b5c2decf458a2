# One long line of a file bounded as a value (session 31; session 30's
# leftover): rev, sed, nl, cut and the other readers of lines gathered
# a line of any length, so a line of a big regular file (no device, so
# no ReadMeter) took the heap past a small memory limit on its last
# copy: `rev f` of a 100 MB line under --max-memory 64M reached 207 MB
# of RSS (sed 129 MB, cut 156 MB). Now a line past the bound on one
# value (an eighth of the memory limit: 4 MiB here) stops the run as a
# value does: `limit exceeded: value too large`, 125 (64, 46 and 47 MB).
# A line under it goes through; the other readers: builtins
# TestLineBound.
#@ args: -i @RO@ -o @RW@ --max-memory 32M --timeout 20s
#@ status: 125
#@ stdout: small 3500000
#@ stderr: llmsh: limit exceeded: value too large (more than 4194304 bytes)
#@ no-stdout: never
#@ no-stderr: memory limit exceeded
head -c 3500000 /dev/zero | tr '\0' y > line
rev line | wc -c | { read n; echo small $n; }
head -c 4500000 /dev/zero | tr '\0' y > line
sed p line | cut -c1 | nl
echo never
