# type, command -v and hash stat the host in interp.
#@ status: any
#@ no-stdout: @OUT@
type canary nosuchcmd
command -v canary nosuchcmd
PATH=@OUT@/bin command -v nosuchcmd
hash nosuchcmd
which nosuchcmd
