# Writes outside the grants never reach host files. A host directory
# outside the grants does not exist for the script, so a write into it
# fails as into a missing directory; made by mkdir -p, it is a virtual
# directory, and the file in it a virtual file.
#@ stdout: pwn\npwn2
#@ stderr: @OUT@/new: No such file or directory
#@ stderr: discarded virtual files: @OUT@/new
echo pwn > @OUT@/new
mkdir -p @OUT@
echo pwn > @OUT@/new
echo pwn2 >> @OUT@/new
cat @OUT@/new
