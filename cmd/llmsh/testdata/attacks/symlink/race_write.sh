# Writes and appends through rw/swap while it flips to a link to the
# secret: the secret stays unchanged.
#@ race
#@ status: any
for i in $(seq 1 200); do echo pwn > swap; echo pwn >> swap; echo pwn > swapdir/secret; done 2>/dev/null
