# A host program by absolute path.
#@ status: 127
#@ stderr: llmsh: @CANARY@: command not found
@CANARY@
