# iconv converts its whole input in one loop: 1 GB of Latin-1 made 4 GB
# of UTF-32 without looking at the run's context, so the heap guard's
# cancellation went unheard (the CLI ended by its watchdog: "the script
# did not stop when its run was cancelled"; a library or serve host grew
# on past 4 GB). The conversion now stops when the run is stopped.
#@ heavy
#@ timeout: 180s
#@ status: 125
#@ stderr: memory limit exceeded
#@ no-stderr: did not stop
truncate -s 1000M big
iconv -f latin1 -t utf-32 big | wc -c
