# With --strict, unlisted writes fail instead of going to virtual files.
#@ args: -i @RO@ -o @RW@ --strict --timeout 10s
#@ status: 1
#@ stderr: Permission denied
echo pwn > @OUT@/new
