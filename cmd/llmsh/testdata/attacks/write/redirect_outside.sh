# Writes outside the grants become virtual files, never host files.
#@ stdout: pwn\npwn2
#@ stderr: discarded virtual files:
echo pwn > @OUT@/new
echo pwn2 >> @OUT@/new
cat @OUT@/new
