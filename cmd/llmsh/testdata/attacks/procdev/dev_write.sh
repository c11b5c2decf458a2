# Writes to host devices never reach them.
#@ status: any
echo x > /dev/sda
echo x > /dev/kmsg
echo x > /dev/mem
echo x > /dev/tty
echo ok > /dev/null
echo ok > /dev/stderr
