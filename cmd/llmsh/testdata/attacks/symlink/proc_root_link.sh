# A link through /proc/self/root back to the secret.
#@ status: 1
#@ stderr: Permission denied
cat proc-link
