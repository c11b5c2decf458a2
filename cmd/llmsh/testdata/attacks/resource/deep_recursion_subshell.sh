#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 60s
#@ status: 125
#@ stderr: limit exceeded
f() { (f); }; f
