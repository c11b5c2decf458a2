# timeout as a launcher.
#@ status: 127
#@ stderr: timeout: failed to run command
timeout 5 @CANARY@
timeout -s KILL 1 @CANARY@
