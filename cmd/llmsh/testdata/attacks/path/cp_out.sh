# Copy the secret into the granted tree, then read the copy.
#@ status: 1
#@ stderr: No such file or directory
#@ stderr: stolen: No such file or directory
cp @SECRET@ stolen
cat stolen
