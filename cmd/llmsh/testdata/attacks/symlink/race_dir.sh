# rw/swapdir flips between a directory and a link to the outside
# directory while the script reads and lists through it.
#@ race
#@ status: any
for i in $(seq 1 200); do cat swapdir/secret 2>/dev/null; ls swapdir 2>/dev/null; done | sort | uniq -c
