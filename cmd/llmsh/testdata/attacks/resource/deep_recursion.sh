#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 60s
#@ status: 125
#@ stderr: maximum call depth exceeded
f() { f; }; f
