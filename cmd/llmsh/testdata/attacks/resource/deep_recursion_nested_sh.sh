#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 20s
#@ status: nonzero
f() { sh -c 'f() { f; }; f'; }; f
