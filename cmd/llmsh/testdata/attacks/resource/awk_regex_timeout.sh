# awk's regexp work on long strings overstaying the time limit (session
# 17, red team): the context was looked at every 1000 instructions, but
# one match of an 8 MB string takes seconds (`[a-z]{1,30}Q`: 12 s for
# 16 MB), so a loop of them went on for minutes (a library Session.Run
# with a 1 s limit answered after 247 s); a gsub of millions of matches
# ran to its end (93 s). The CLI ended only by its watchdog. Now regexp
# work on a megabyte makes the next instruction look, a long match is
# read through a reader that looks, and gsub looks every 4096 matches.
#@ timeout: 1s
#@ status: 124
#@ stderr: timed out after 1s
#@ no-stderr: did not stop
awk 'BEGIN { s = "ab"; for (i = 0; i < 22; i++) s = s s; while (1) if (s ~ /[a-z]{1,30}Q/) print "?" }' &
echo x | awk '{ while (1) gsub(/x*/, "yy") }' &
wait
