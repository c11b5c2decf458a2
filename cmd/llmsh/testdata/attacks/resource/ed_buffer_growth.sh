# ed's buffer grown by its own commands (session 33, red team): only the
# file ed reads was bounded as one value (session 32), so 40 rounds of
# ",t$" doubled a one-line buffer until the memory guard's tick caught
# it, 207 MB of RSS under --max-memory 64M after 5.8 s (each doubling one
# allocation: under the default 2 GiB, gigabytes past it). The buffer is
# now one value whatever makes it grow (t, r, s, a): past the bound the
# run stops, `value too large`, 125 (32 MB, 0.15 s).
#@ args: -i @RO@ -o @RW@ --max-memory 32M --timeout 20s
#@ status: 125
#@ stderr: llmsh: limit exceeded: value too large (more than 4194304 bytes)
#@ no-stderr: memory limit exceeded
#@ no-stdout: never
echo a > one
{ for i in $(seq 40); do echo ',t$'; done; echo '$='; echo q; } | ed -s one
echo never
