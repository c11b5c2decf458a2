# command, command -p, builtin.
#@ status: any
#@ stderr: command not found
command @CANARY@
command -p @CANARY@
command -p nosuchcmd
builtin @CANARY@
