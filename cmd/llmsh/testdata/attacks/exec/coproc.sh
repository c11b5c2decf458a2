# coproc would start a program with pipes.
#@ status: 2
#@ stderr: llmsh: coproc is not supported
coproc @CANARY@
coproc x { @CANARY@; }
wait
