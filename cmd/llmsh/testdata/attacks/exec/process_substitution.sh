# Process substitution would make a host FIFO: refused before running.
#@ status: 2
#@ stderr: process substitution is not supported
cat <(@CANARY@)
