# jq's env and $ENV.
#@ no-stdout: LLMSH_ATTACK_CANARY
#@ no-stdout: @OUT@
jq -n 'env | keys'
jq -n '$ENV.LLMSH_ATTACK_CANARY, $ENV.HOME'
