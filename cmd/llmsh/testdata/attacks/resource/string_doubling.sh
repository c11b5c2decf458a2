# A string that doubles forever.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 3s
#@ status: nonzero
x=a; while :; do x=$x$x; done
