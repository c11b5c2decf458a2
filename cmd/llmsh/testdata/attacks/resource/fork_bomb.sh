#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 30s
#@ status: 125
#@ stderr: a fork bomb?
:(){ :|:& };:
