# One command writing one file through two descriptors (awk's stdout and
# stderr, both redirected to the file), the first write gathered in a
# write-behind slot (32 KiB or more): the bytes land in the order written,
# as through the kernel. The slot went out at the command's end, after
# the second descriptor's small write: the appended lines came out of
# order and the "X" written at offset 0 was overwritten. (Written first
# with awk's /dev/fd/3 and /dev/fd/4; since session 26 /dev/fd/N of a
# file's descriptor opens the file anew, truncating it for ">", as Linux
# does, so the two descriptors are now 1 and 2, which are the
# descriptors themselves.)
#@ status: 0
#@ stdout: append: 000 b 000
#@ stdout: rw: X00 40000
: > log
awk 'BEGIN { s = sprintf("%040000d", 7)
  printf "%s\n", s > "/dev/stdout"; fflush()
  printf "b\n" > "/dev/stderr"; fflush()
  printf "%s\n", s > "/dev/stdout"; fflush() }' >>log 2>>log
echo "append: $(cut -c1-3 log | tr '\n' ' ')"
: > rw
awk 'BEGIN { printf "%s", sprintf("%040000d", 7) > "/dev/stdout"; fflush()
  printf "X" > "/dev/stderr"; fflush() }' 1<>rw 2<>rw
echo "rw: $(head -c 3 rw) $(wc -c < rw)"
