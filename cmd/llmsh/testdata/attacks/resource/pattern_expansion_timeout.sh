# A pattern removal or replacement of a long value overstaying the time
# limit (session 17, red team): ${s//a*Q/x} and ${s##*Q*a} of a 64 MB
# value scanned it for 27-44 s and 10-17 s without looking at the run's
# context, so a library Session.Run with a 1 s limit answered that late;
# the words of one command (expanded with no look between them), minutes.
# A value of a megabyte or more is now read through a reader that looks
# at the context.
#@ timeout: 2s
#@ status: 124
#@ stderr: timed out after 2s
s=ab
for i in {1..25}; do s=$s$s; done
: "${s//a*Q/}" "${s//b*Q/}" "${s//[a-z]?Q/}" "${s//a?Q/}" "${s//b?Q/}" "${s##*Q*a}"
echo "not reached"
