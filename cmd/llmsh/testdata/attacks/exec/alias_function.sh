# Aliases and functions standing for programs.
#@ status: 127
#@ stderr: command not found
shopt -s expand_aliases
alias ls=@CANARY@
ls
cat() { @CANARY@ "$@"; }
cat x
