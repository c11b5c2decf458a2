# Globbing /proc for other processes' environments.
#@ status: any
#@ stdout: /proc/*/environ
#@ no-stdout: /proc/1
echo /proc/*/environ
ls /proc/[0-9]*
