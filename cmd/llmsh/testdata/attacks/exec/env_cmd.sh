# env as a launcher, with and without a clean environment.
#@ status: 127
#@ stderr: command not found
env @CANARY@
env -i @CANARY@
env PATH=@OUT@ canary
env -- nosuchcmd
