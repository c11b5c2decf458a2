# The host environment through /proc.
#@ status: 1
#@ stderr: No such file or directory
cat /proc/self/environ
cat /proc/$$/environ
cat /proc/1/environ
strings /proc/self/environ
