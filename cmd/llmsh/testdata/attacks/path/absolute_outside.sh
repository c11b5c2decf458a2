# The secret's absolute path.
#@ status: 1
#@ stderr: cat: @SECRET@: No such file or directory
cat @SECRET@
