# System-wide /proc files and a sysctl write.
#@ status: any
#@ no-stdout: processor
cat /proc/cpuinfo
cat /proc/mounts
cat /proc/kallsyms
echo 1 > /proc/sys/kernel/sysrq
cat /proc/sys/kernel/sysrq
ls /proc
