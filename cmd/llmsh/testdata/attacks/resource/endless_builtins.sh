# Builtins with their own loops honour the time limit.
#@ args: -i @RO@ -o @RW@ --timeout 2s
#@ status: 124
awk 'BEGIN { while (1); }'
