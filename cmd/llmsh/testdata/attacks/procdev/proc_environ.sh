# The host environment through /proc.
#@ status: 1
#@ stderr: Permission denied
cat /proc/self/environ
cat /proc/$$/environ
cat /proc/1/environ
strings /proc/self/environ
