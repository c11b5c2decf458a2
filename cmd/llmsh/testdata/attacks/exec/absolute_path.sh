# A host program by absolute path.
#@ status: 127
#@ stderr: @CANARY@: command not found
@CANARY@
