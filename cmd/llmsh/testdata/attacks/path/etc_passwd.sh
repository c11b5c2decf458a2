# Well-known host files.
#@ status: 2
#@ no-stdout: root:
#@ stderr: cat: /etc/passwd: Permission denied
cat /etc/passwd
head -1 /etc/shadow
grep root /etc/group
