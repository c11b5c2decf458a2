# set, declare -p, export -p, typeset, compgen -v.
#@ status: any
#@ no-stdout: LLMSH_ATTACK_CANARY
#@ no-stdout: @OUT@
set
declare -p
declare -x
export -p
typeset -p
compgen -v
compgen -e
echo ${!L*}
