# An endless command substitution: stopped by the time limit or the
# memory guard, whichever comes first.
# Under --max-memory 256M the value bound (an eighth of it, session 30)
# stops it at 32 MiB.
#@ args: -i @RO@ -o @RW@ --max-memory 256M --timeout 3s
#@ status: 125
#@ stderr: value too large (more than 33554432 bytes)
x=$(yes)
echo ${#x}
