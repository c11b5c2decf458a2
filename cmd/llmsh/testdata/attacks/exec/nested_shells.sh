# sh -c, bash -c, nested, and exec inside them.
#@ status: 127
#@ stderr: command not found
bash -c @CANARY@
sh -c "sh -c @CANARY@"
bash -c 'exec @CANARY@'
llmsh -c @CANARY@
sh -c 'eval @CANARY@'
