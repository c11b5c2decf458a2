#@ args: -i @RO@ -o @RW@ --timeout 1s
#@ status: 124
seq 1 1e12 > /dev/null
