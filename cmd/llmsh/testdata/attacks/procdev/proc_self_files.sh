# Process information through /proc/self.
#@ status: any
#@ stderr: No such file or directory
cat /proc/self/cmdline
cat /proc/self/maps
cat /proc/self/status
cat /proc/self/mountinfo
ls /proc/self/fd
readlink /proc/self/exe
cat /proc/self/cwd/../out/secret
cat /proc/self/root@SECRET@
