# Completion builtins read directories and commands.
#@ status: any
#@ no-stdout: other.txt
compgen -f @OUT@/
compgen -c can
complete -C @CANARY@ x
