# Issue 18 B2 and B3: type -P, command -v/-V and source's $PATH search
# stat'ed the host (interp's LookPathDir and scriptFromPathDir), so their
# answers named host files that exist. llmsh's own programs are answered
# at their virtual paths (/usr/bin/ls, /bin/sh); the host's (gcc,
# python3) never.
#@ status: any
#@ no-stdout: @OUT@
#@ no-stderr: @OUT@/secret
#@ no-stderr: /etc/shadow
#@ no-stderr: /etc/passwd
#@ no-stderr: @OUT@/bin/nosuchcmd
#@ no-stdout: gcc
#@ no-stdout: python3
PATH=@OUT@/bin builtin type -P nosuchcmd
PATH=@OUT@/bin:/usr/bin:/bin builtin type -P nosuchcmd sh ls gcc python3
PATH=@OUT@/bin command command -v nosuchcmd
command command -v @CANARY@ /bin/ls /usr/bin/env
builtin command -V @CANARY@
builtin type @CANARY@ /bin/sh
PATH=@OUT@/bin builtin type -a nosuchcmd
PATH=@OUT@/bin command hash nosuchcmd
PATH=@OUT@; source secret
PATH=@OUT@ builtin source secret
PATH=@OUT@ command . secret
PATH=/etc command source shadow
PATH=/etc builtin . passwd
eval 'PATH=@OUT@/bin type -P nosuchcmd'
c=command; PATH=@OUT@/bin $c -v nosuchcmd
