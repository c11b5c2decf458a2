# Writing an endless virtual file: the virtual budget refuses.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 30s
#@ status: 1
#@ stderr: File too large
yes > /tmp/huge
