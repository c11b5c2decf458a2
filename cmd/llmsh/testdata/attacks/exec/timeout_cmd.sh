# timeout as a launcher.
#@ status: 127
#@ stderr: command not found
timeout 5 @CANARY@
timeout -s KILL 1 @CANARY@
