# paste's -d list decoded into a slice of its own for each delimiter
# (session 28, red team): a list of 100 MB made 100 million slices of one
# byte, 800 MB and 10 s of work that looks at no context, which the CLI
# ended as stuck at its 10 s limit ("the script did not stop"). The list
# is now two bytes a delimiter: 1.0 s and 590 MB in all for 100 MB.
# Session 30: at load 45 that second of work outlasted the 10 s limit;
# a list of 30 MB under a 256 MiB memory limit (whose bound on one value
# is 32 MiB) peaks at 155 MB of heap, which a slice of its own for each
# delimiter (8 bytes each: 240 MB more) would take past the limit.
#@ args: -i @RO@ -o @RW@ --max-memory 256M --timeout 60s
#@ stdout: 3
#@ no-stderr: did not stop
#@ no-stderr: memory limit
echo x | paste -d "$(printf %030000000d 0)" - - | wc -c
