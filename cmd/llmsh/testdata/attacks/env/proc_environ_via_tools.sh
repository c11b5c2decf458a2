# The environment through /proc with tools other than cat.
#@ status: any
#@ stderr: No such file or directory
tr '\0' '\n' < /proc/self/environ
xargs -0 -n1 < /proc/self/environ
od -c /proc/self/environ
awk 1 /proc/self/environ
