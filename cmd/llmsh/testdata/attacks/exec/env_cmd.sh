# env as a launcher, with and without a clean environment.
#@ status: 127
#@ stderr: env: 'canary': No such file or directory
#@ stderr: env: 'nosuchcmd': No such file or directory
env @CANARY@
env -i @CANARY@
env PATH=@OUT@ canary
env -- nosuchcmd
