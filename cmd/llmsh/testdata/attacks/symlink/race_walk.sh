# Recursive tools walking while the links flip.
#@ race
#@ status: any
for i in $(seq 1 40); do grep -r MARK . ; find . -name secret; du -a swapdir; done 2>/dev/null
