# Overwriting or appending to the secret leaves the host file alone: its
# directory does not exist for the script, and once made (virtual) the
# secret's name is a virtual file.
#@ stdout: pwn
#@ stderr: @SECRET@: No such file or directory
#@ stderr: @OUT@/other.txt: No such file or directory
#@ stderr: discarded virtual files:
echo pwn > @SECRET@
echo more >> @OUT@/other.txt
mkdir -p @OUT@
echo pwn > @SECRET@
echo more >> @OUT@/other.txt
head -1 @SECRET@
