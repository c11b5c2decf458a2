# env and printenv list only the script's own variables.
#@ stdout: HOME=/home/llmsh
#@ no-stdout: LLMSH_ATTACK_CANARY
#@ no-stdout: @OUT@
env
printenv
printenv LLMSH_ATTACK_CANARY HOME
echo "[$LLMSH_ATTACK_CANARY]"
