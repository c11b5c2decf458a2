# coproc runs its command in-process, its stdin and stdout on pipes to the
# shell: a program named in it is not found.
#@ status: 0
#@ stdout: 127
#@ stderr: command not found
coproc @CANARY@
wait $COPROC_PID; echo $?
coproc x { @CANARY@; }
wait
