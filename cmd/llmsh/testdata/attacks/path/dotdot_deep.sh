# More .. than the path has components, then down to the secret.
#@ status: 1
#@ stderr: Permission denied
cat ../../../../../../../../../../../..@SECRET@
