# One command writing one file through two descriptors (awk's /dev/fd/N),
# the first write gathered in a write-behind slot (32 KiB or more): the
# bytes land in the order written, as through the kernel. The slot went
# out at the command's end, after the second descriptor's small write:
# the appended lines came out of order and the "X" written at offset 0
# was overwritten.
#@ status: 0
#@ stdout: append: 000 b 000
#@ stdout: rw: X00 40000
: > log; exec 3>>log 4>>log
awk 'BEGIN { s = sprintf("%040000d", 7)
  printf "%s\n", s > "/dev/fd/3"; fflush("/dev/fd/3")
  printf "b\n" > "/dev/fd/4"; fflush("/dev/fd/4")
  printf "%s\n", s > "/dev/fd/3"; fflush("/dev/fd/3") }'
exec 3>&- 4>&-
echo "append: $(cut -c1-3 log | tr '\n' ' ')"
: > rw; exec 3<>rw 4<>rw
awk 'BEGIN { printf "%s", sprintf("%040000d", 7) > "/dev/fd/3"; fflush("/dev/fd/3")
  printf "X" > "/dev/fd/4"; fflush("/dev/fd/4") }'
exec 3>&- 4>&-
echo "rw: $(head -c 3 rw) $(wc -c < rw)"
