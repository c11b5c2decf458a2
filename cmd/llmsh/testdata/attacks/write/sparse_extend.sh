# Files extended far past their end inside the -o tree: truncate wrote
# every zero byte (truncate -s 100T filled the disk at the speed of the
# writes, 2.9 GB in 5 s, and nothing cancelled it: a library or serve run
# kept writing after its time limit) and dd seek= made the skipped bytes
# one slice (seek=100000000000000: fatal error: out of memory). Both now
# leave a hole, as GNU's ftruncate does: the size is there, the disk
# blocks are not.
#@ status: 0
#@ stdout: size=1099511627776
#@ stdout: dd-size=100000000001
#@ stdout: 0000000   a   b   c  \0
truncate -s 1T big && echo "size=$(stat -c %s big)"
dd if=/dev/zero of=sp bs=1 count=1 seek=100000000000 2>/dev/null && echo "dd-size=$(stat -c %s sp)"
printf abcdef > f; dd if=/dev/zero of=f bs=1 count=1 seek=3 2>/dev/null; od -c f
dd if=/dev/zero of=/tmp/v bs=1 count=1 seek=100000000000000 2>/dev/null || echo virtual-refused
rm big sp f
