# An endless command substitution: stopped by the time limit or the
# memory guard, whichever comes first.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 3s
#@ status: nonzero
x=$(yes)
echo ${#x}
