# exec replaces the shell with a program.
#@ status: 127
#@ stderr: command not found
exec @CANARY@
