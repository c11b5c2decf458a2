# The secret's absolute path.
#@ status: 1
#@ stderr: cat: @SECRET@: Permission denied
cat @SECRET@
