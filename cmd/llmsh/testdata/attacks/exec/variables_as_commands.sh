# A program path held in a variable, an array, an indirection.
#@ status: 127
#@ stderr: command not found
c=@CANARY@; $c
"$c" arg
a=(@CANARY@ x); "${a[@]}"
n=c; ${!n}
${c%canary}canary
