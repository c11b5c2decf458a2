# The write budget of the command line (--max-write): yes into the -o
# tree stops at it with GNU's "File too large", status 1, and the script
# goes on (its new name took 268 bytes of it: 256 for an inode, 12 for its
# directory entry); a file outside the grants (a virtual file) has its own
# budget.
#@ args: -i @RO@ -o @RW@ --max-write 64K --timeout 10s
#@ stdout: yes 1
#@ stdout: size 65268
#@ stdout: mkdir 1
#@ stderr: mkdir: cannot create directory 'newdir': File too large
#@ stdout: virtual 100000
#@ stderr: yes: standard output: File too large
yes > big
echo "yes $?"
echo "size $(wc -c < big)"
mkdir newdir
echo "mkdir $?"
head -c 100000 /dev/zero > /tmp/scratch
echo "virtual $(wc -c < /tmp/scratch)"
