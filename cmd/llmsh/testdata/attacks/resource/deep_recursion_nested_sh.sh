#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 60s
#@ status: nonzero
f() { sh -c 'f() { f; }; f'; }; f
