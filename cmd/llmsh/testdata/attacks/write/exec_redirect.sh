# Redirecting the whole shell's output to a file outside.
#@ status: any
exec > @OUT@/all
echo pwn
exec 2>> @SECRET@
echo pwn >&2
