# The write budget of the command line (--max-write): yes into the -o
# tree stops at it with GNU's "File too large", status 1, and the script
# goes on. Its new name (268 bytes: 256 for an inode, 12 for its
# directory entry) and the directory d1 (4364) fit in the 8 KiB of names
# that are free (session 32), a second directory does not; a file outside
# the grants (a virtual file) has its own budget.
#@ args: -i @RO@ -o @RW@ --max-write 64K --timeout 10s
#@ stdout: yes 1
#@ stdout: size 65536
#@ stdout: mkdir 1
#@ stderr: mkdir: cannot create directory 'newdir': File too large
#@ stdout: virtual 100000
#@ stderr: yes: standard output: File too large
yes > big
echo "yes $?"
echo "size $(wc -c < big)"
mkdir d1 && mkdir newdir
echo "mkdir $?"
head -c 100000 /dev/zero > /tmp/scratch
echo "virtual $(wc -c < /tmp/scratch)"
