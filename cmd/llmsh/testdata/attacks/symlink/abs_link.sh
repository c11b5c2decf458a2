# A link in the -o tree to the secret's absolute path.
#@ status: 1
#@ stderr: cat: link-abs: Permission denied
cat link-abs
