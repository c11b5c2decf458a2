# The descriptors to vfsd and the standard streams.
#@ status: any
#@ stderr: Permission denied
cat /proc/self/fd/3
echo '{}' > /proc/self/fd/4
cat /dev/fd/3
ls -l /dev/fd/
