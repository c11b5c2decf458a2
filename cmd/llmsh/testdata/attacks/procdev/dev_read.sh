# Host devices are not readable (llmsh serves /dev/zero and /dev/urandom itself).
#@ status: 1
#@ stderr: No such file or directory
head -c 8 /dev/urandom
head -c 8 /dev/zero
cat /dev/mem
cat /dev/sda
cat /dev/tty
