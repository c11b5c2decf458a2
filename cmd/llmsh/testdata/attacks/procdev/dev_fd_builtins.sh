# Issue 18: awk created a virtual /dev/fd/3 (any /dev/fd/N a builtin
# opened went to vfsd as a file). A builtin's /dev/fd/N is now a descriptor
# it has, or "No such file or directory": never a file, never listed.
#@ status: 0
#@ stdout: awk-in:readable
#@ stdout: to3
#@ no-stderr: discarded virtual files
#@ stderr: cannot open "/dev/fd/9" for output
#@ stderr: cat: /dev/fd/7: No such file or directory
exec 3>fd3.txt 4<@RO@/in.txt
awk 'BEGIN { print "to3" > "/dev/fd/3" }'
awk '{ print "awk-in:" $0 }' /dev/fd/4
echo z | awk '{ print > "/dev/fd/9" }'
awk 'BEGIN { while ((getline l < "/dev/fd/8") > 0) print l }'
cat /dev/fd/7
tee /dev/fd/6 /dev/fd/63 < /dev/null
sort -o /dev/fd/5 < /dev/null
exec 3>&-
cat fd3.txt
ls -d /dev/fd/* 2>/dev/null
true
