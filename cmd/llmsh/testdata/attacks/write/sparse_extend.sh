# Files extended far past their end inside the -o tree: truncate wrote
# every zero byte (truncate -s 100T filled the disk at the speed of the
# writes, 2.9 GB in 5 s, and nothing cancelled it: a library or serve run
# kept writing after its time limit) and dd seek= made the skipped bytes
# one slice (seek=100000000000000: fatal error: out of memory). Both now
# leave a hole, as GNU's ftruncate does: the size is there, the disk
# blocks are not. 64G, not 1T: CI's disk refused a 1 TiB file (EFBIG,
# a filesystem's own size cap), and 64G of zeros written one by one is
# as sure to miss the time limit.
#@ status: 0
#@ stdout: size=68719476736
#@ stdout: dd-size=100000000001
#@ stdout: 0000000   a   b   c  \0
truncate -s 64G big && echo "size=$(stat -c %s big)"
dd if=/dev/zero of=sp bs=1 count=1 seek=100000000000 2>/dev/null && echo "dd-size=$(stat -c %s sp)"
printf abcdef > f; dd if=/dev/zero of=f bs=1 count=1 seek=3 2>/dev/null; od -c f
dd if=/dev/zero of=/tmp/v bs=1 count=1 seek=100000000000000 2>/dev/null || echo virtual-refused
rm big sp f
