# Variables that the host sets for its shells.
#@ no-stdout: @OUT@
echo "PATH=[$PATH] TMPDIR=[$TMPDIR] USER=[$USER] LOGNAME=[$LOGNAME] SHELL=[$SHELL]"
echo "[$LD_PRELOAD] [$SSH_AUTH_SOCK] [$TERM] [$HOSTNAME]"
