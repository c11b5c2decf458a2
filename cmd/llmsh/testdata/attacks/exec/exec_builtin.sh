# exec replaces the shell with a program.
#@ status: 127
#@ stderr: not found
exec @CANARY@
