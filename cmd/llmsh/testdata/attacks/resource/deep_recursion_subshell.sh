#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 20s
#@ status: 125
#@ stderr: limit exceeded
f() { (f); }; f
