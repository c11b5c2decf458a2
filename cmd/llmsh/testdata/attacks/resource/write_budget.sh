# Filling the host's disk through the -o tree (session 18: a probe's
# `yes > o3` wrote 61 GB before its --timeout): vfsd's write budget stops
# every way of adding bytes to host files once it is spent. ulimit -f
# lowers it (here to 64 KiB) and cannot raise it again.
#@ stdout: 64
#@ stdout: total 25536 20000
#@ stdout: yes 1
#@ stdout: truncate 1
#@ stderr: yes: standard output: File too large
#@ stderr: ulimit: file size: cannot modify limit: Operation not permitted
ulimit -f 64
ulimit -f unlimited
ulimit -f
head -c 20000 /dev/zero > held
exec 3< held # held open: its blocks stay used after the rewrite
head -c 20000 /dev/zero > held # counted again
exec 3<&-
echo x > small
yes > big
echo "yes $?"
truncate -s 1T sparse
echo "truncate $?"
dd if=/dev/zero of=dd.out bs=1k count=1 seek=10000000 2>/dev/null
echo "dd $?"
printf '%9999s' x | tee t1 t2 > /dev/null
cp big big.copy
for i in 1 2 3; do yes $i > bg$i & done; wait
head -c 5000 /dev/zero >> small
echo "total $(cat small big sparse dd.out t1 t2 big.copy bg1 bg2 bg3 | wc -c) $(wc -c < held)"
