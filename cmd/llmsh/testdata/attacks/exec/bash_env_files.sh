# BASH_ENV, ENV and PROMPT_COMMAND name code to run.
#@ status: any
export BASH_ENV=@CANARY@ ENV=@CANARY@ PROMPT_COMMAND=@CANARY@
bash -c true
sh -c true
