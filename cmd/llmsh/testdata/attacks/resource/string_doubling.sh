# A string that doubles forever.
# Under --max-memory 256M its value bound is 32 MiB (an eighth, session
# 30): the same stop at an eighth of the memory the default's 256 MiB took.
#@ args: -i @RO@ -o @RW@ --max-memory 256M --timeout 3s
#@ status: 125
#@ stderr: value too large (more than 33554432 bytes)
x=a; while :; do x=$x$x; done
