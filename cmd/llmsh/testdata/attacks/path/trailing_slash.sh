# A trailing slash on a file is "Not a directory" (issue 18: cat
# in/file.txt/ succeeded), in the read-only tree, the writable tree and
# on virtual files, for reads, stats, listings, writes and removals; a
# directory with a slash is a directory.
#@ status: 0
#@ stdout: cat 1
#@ stdout: refused 8
#@ stdout: dirs ok
#@ stdout: work
#@ stdout: shell refused 5
#@ stdout: shell dirs ok
#@ stderr: cat: @RO@/in.txt/: Not a directory
#@ stderr: ls: cannot access 'work.txt/': Not a directory
#@ stderr: cp: cannot stat 'work.txt/': Not a directory
#@ stderr: rm: cannot remove '/tmp/v/': Not a directory
cat @RO@/in.txt/; echo cat $?
echo virtual > /tmp/v
n=0
ls work.txt/ || n=$((n+1))
wc -c @RO@/sub/deep.txt/ 2>/dev/null || n=$((n+1))
head -n1 /tmp/v/ 2>/dev/null || n=$((n+1))
stat work.txt/. 2>/dev/null || n=$((n+1))
cp @RO@/in.txt work.txt/ || n=$((n+1))
rm /tmp/v/ || n=$((n+1))
find work.txt/ 2>/dev/null || n=$((n+1))
grep x @RO@/in.txt/ 2>/dev/null; [ $? = 2 ] && n=$((n+1))
echo refused $n
ls @RO@/sub/ >/dev/null && cat @RO@/sub/./deep.txt >/dev/null && echo dirs ok
cat work.txt
# The shell's own paths: redirections and tests.
m=0
cat < work.txt/ 2>/dev/null || m=$((m+1))
echo x > work.txt/ 2>/dev/null || m=$((m+1))
test -e work.txt/ || m=$((m+1))
[[ -f @RO@/in.txt/ ]] || m=$((m+1))
[ -r /tmp/v/. ] || m=$((m+1))
echo shell refused $m
[ -d @RO@/sub/ ] && [[ -e @RO@/sub/. ]] && echo shell dirs ok
