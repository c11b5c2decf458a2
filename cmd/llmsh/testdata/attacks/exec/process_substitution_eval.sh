# Process substitution hidden from the pre-run check by eval and source:
# the interpreter runs it itself, through llmsh's in-memory pipes (no
# host FIFO, no host program).
#@ status: 127
#@ stdout: x\nx\n
#@ stderr: canary: command not found
eval 'cat <(echo x)'
echo 'cat <(echo x)' > s.sh
source s.sh
eval '@CANARY@ > >(cat)'
