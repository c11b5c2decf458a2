# awk's ENVIRON array.
#@ no-stdout: LLMSH_ATTACK_CANARY
#@ no-stdout: @OUT@
awk 'BEGIN { for (k in ENVIRON) print k "=" ENVIRON[k] }'
awk 'BEGIN { print ENVIRON["LLMSH_ATTACK_CANARY"], ENVIRON["USER"] }'
