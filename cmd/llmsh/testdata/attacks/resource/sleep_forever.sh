#@ args: -i @RO@ -o @RW@ --timeout 1s
#@ status: 124
sleep 1e9
