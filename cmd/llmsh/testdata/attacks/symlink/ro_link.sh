# A link in the -i tree to the secret.
#@ status: 1
#@ stderr: Permission denied
cat @RO@/ro-link
