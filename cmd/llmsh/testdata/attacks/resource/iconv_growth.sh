# iconv converts its whole input in one loop: 1 GB of Latin-1 made 4 GB
# of UTF-32 without looking at the run's context, so the heap guard's
# cancellation went unheard (the CLI ended by its watchdog: "the script
# did not stop when its run was cancelled"; a library or serve host grew
# on past 4 GB). The conversion now stops when the run is stopped.
# The guard's limit is lowered to 256 MiB (--max-memory) so that the
# same overrun costs an eighth of the memory and time. Since session 32
# iconv reads its input through the bounded reader: its single 300 MB
# line stops at the per-value bound ("limit exceeded: value too large")
# before the guard has to.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 180s --max-memory 256M
#@ status: 125
#@ stderr: limit exceeded
#@ no-stderr: did not stop
truncate -s 300M big
iconv -f latin1 -t utf-32 big | wc -c
