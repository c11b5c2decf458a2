# Nested shells and launchers see only what the script exported.
#@ status: any
#@ no-stdout: @OUT@
sh -c 'env; echo "$LLMSH_ATTACK_CANARY $USER"'
bash -c 'set'
echo | xargs env
find . -maxdepth 0 -exec env \;
timeout 5 env
