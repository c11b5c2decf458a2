# Overwriting or appending to the secret leaves the host file alone.
#@ stdout: pwn
#@ stderr: discarded virtual files:
echo pwn > @SECRET@
echo more >> @OUT@/other.txt
head -1 @SECRET@
