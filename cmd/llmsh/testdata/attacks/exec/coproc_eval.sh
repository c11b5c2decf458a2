# coproc hidden from the pre-run check by eval.
#@ status: 2
#@ stderr: llmsh: eval: coproc is not supported
eval 'coproc @CANARY@'
