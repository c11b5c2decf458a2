# Builtins with their own loops honour the time limit.
#@ args: -i @RO@ -o @RW@ --timeout 1s
#@ status: 124
awk 'BEGIN { while (1); }'
