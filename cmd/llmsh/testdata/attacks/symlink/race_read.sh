# rw/swap flips between a harmless file and a link to the secret while
# the script reads it: a read either sees "harmless" or is refused.
#@ race
#@ status: any
for i in $(seq 1 300); do cat swap 2>/dev/null; done | sort | uniq -c
