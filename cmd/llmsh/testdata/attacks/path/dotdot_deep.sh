# More .. than the path has components, then down to the secret.
#@ status: 1
#@ stderr: No such file or directory
cat ../../../../../../../../../../../..@SECRET@
