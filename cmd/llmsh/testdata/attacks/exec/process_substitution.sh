# Process substitution runs its list in-process (an in-memory pipe at
# /dev/fd/N, no host FIFO): a program named in it is not found.
#@ status: 0
#@ stdout: x
#@ stderr: command not found
cat <(@CANARY@)
@CANARY@ > >(cat)
cat <(echo x)
