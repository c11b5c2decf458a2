# expr's match of a long string overstaying the time limit (session 17,
# red team): one search of a 16 MB string (`[a-z]\{1,30\}Q`) took 57 s
# without looking at the run's context, so a library Session.Run with a
# 1 s limit answered that late (this 64 MB string: minutes). A string of
# a megabyte or more is now read through a reader that looks at it.
#@ timeout: 2s
#@ status: 124
#@ stderr: timed out after 2s
s=ab
for i in {1..25}; do s=$s$s; done
expr "$s" : '.*[a-z]\{1,30\}Q'
echo "not reached"
