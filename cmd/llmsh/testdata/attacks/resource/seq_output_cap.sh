#@ args: -i @RO@ -o @RW@ --timeout 10s --max-output 100000
#@ status: 125
#@ stderr: output limit exceeded
seq 1 1e12
