# xargs starting programs named on its command line or on its input.
#@ status: any
#@ stderr: command not found
echo x | xargs @CANARY@
echo @CANARY@ | xargs -I{} {}
echo @CANARY@ | xargs sh -c
echo x | xargs -n1 nosuchcmd
