# Backreferences and nested stars on a long line finish promptly.
#@ args: -i @RO@ -o @RW@ --timeout 10s
#@ status: 1
s=$(printf 'a%.0s' {1..40})
echo "$s" | grep -E '(a*)*\1b'
