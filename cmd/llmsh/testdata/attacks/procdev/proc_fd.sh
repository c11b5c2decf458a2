# The descriptors to vfsd and the standard streams.
#@ status: any
#@ stderr: No such file or directory
cat /proc/self/fd/3
echo '{}' > /proc/self/fd/4
cat /dev/fd/3
ls -l /dev/fd/
