# eval of a program path, built at run time.
#@ status: 127
#@ stderr: command not found
eval @CANARY@
p=@OUT@; eval "$p/canary"
eval "\$(echo @CANARY@)"
