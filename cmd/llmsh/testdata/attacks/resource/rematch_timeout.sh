# [[ s =~ re ]] of a long string overstaying the time limit (session 17,
# red team): one leftmost-longest match scans 16 MB in a minute
# (`[a-z]{1,30}Q`) without looking at the run's context, so a library
# Session.Run with a 1 s limit answered after 60 s (this 64 MB string:
# minutes). A string of a megabyte or more is now read through a reader
# that looks at the context.
#@ timeout: 2s
#@ status: 124
#@ stderr: timed out after 2s
s=ab
for i in {1..25}; do s=$s$s; done
[[ $s =~ [a-z]{1,30}Q ]]
echo "not reached $?"
