# Copy the secret into the granted tree, then read the copy.
#@ status: 1
#@ stderr: Permission denied
#@ stderr: stolen: No such file or directory
cp @SECRET@ stolen
cat stolen
