# A program that only the host PATH (which llmsh's process has) finds,
# and the same through the script's own PATH.
#@ status: 127
#@ stderr: nosuchcmd: command not found
nosuchcmd
PATH=@OUT@/bin:$PATH
nosuchcmd
PATH=@OUT@ canary
