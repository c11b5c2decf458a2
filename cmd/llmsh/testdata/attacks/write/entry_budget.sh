# Filling a directory of the -o tree with empty files (session 20, red
# team: 30000 with 245-byte names grew their directory by 11 MB under
# --max-write 1M, and nothing bounded the inodes they took): each new name
# costs its directory entry and inode of the write budget (256 + 8 + the
# name padded to 4: 512 bytes for 245 bytes) past the first 8 KiB of
# names (free since session 32, so that a small --max-write can make a
# file), so the 64 KiB and 8 KiB left after the directory d (4096 + 268)
# make 135 of them;
# a rewrite of an existing file costs no entry; `ulimit -f`, a bound of
# file sizes, does not bound how many files are made.
#@ args: -i @RO@ -o @RW@ --max-write 64K --timeout 20s
#@ stdout: made 135
#@ no-stderr: line
#@ stdout: again 0
#@ stdout: touch 1
#@ stdout: mkdir 1
#@ stderr: touch: cannot touch 'late': File too large
#@ stderr: mkdir: cannot create directory 'latedir': File too large
ulimit -f 1
mkdir d && cd d || exit
pad=$(printf '%0242d' 0)
i=0
while [ $i -lt 400 ]; do
	{ : > "$(printf '%03d' $i)$pad"; } 2>/dev/null || break
	i=$((i + 1))
done
echo "made $i"
: > "000$pad"
echo "again $?"
touch late
echo "touch $?"
mkdir latedir
echo "mkdir $?"
