#@ args: -i @RO@ -o @RW@ --timeout 10s --max-output 10000
#@ status: 125
#@ stderr: output limit exceeded
yes
