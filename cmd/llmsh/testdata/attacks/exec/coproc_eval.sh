# coproc from eval text runs in-process too: a program in it is not found.
#@ status: 0
#@ stdout: done
#@ stderr: command not found
eval 'coproc @CANARY@'
wait
echo done
