# Builtins that act on the process: nothing leaves the shell.
#@ status: any
ulimit -n 1
umask 000
kill -0 1
kill -0 $PPID
disown -a
suspend
echo "[$UID $EUID]" | grep -c '^\[[0-9]* [0-9]*\]$'
