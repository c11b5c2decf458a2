# Well-known host files.
#@ status: 2
#@ no-stdout: root:
#@ stderr: cat: /etc/passwd: No such file or directory
cat /etc/passwd
head -1 /etc/shadow
grep root /etc/group
