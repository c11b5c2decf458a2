# A search of all matches overstaying the time limit (session 18, red
# team): each search of s///g, gsub, split or jq's match "g" may read to
# the end of the subject, so a regexp like a([^b]*b)? reads 128 KB of
# a's 128 Ki times (past 60 s) while the context was looked at only for
# a subject of a megabyte, and never for a regexp that looks behind (^,
# \b: sed, awk, jq searched those unstoppably at any length). Such
# searches now read the subject through internal/stopre, which looks
# at the context every 65536 characters read in all, and gives a search
# from a later position the character before it.
#@ timeout: 1s
#@ status: 124
#@ stderr: timed out after 1s
#@ no-stdout: not reached
awk 'BEGIN { s = "a"; for (i = 0; i < 18; i++) s = s s; print s }' > a256k
awk '{ gsub(/^x|a([^b]*b)?/, "x"); print "not reached" }' a256k &
awk '{ n = split($0, p, /^x|a([^b]*b)?/); print "not reached" }' a256k &
sed -E 's/\bx|a([^b]*b)?/x/g' a256k | sed 's/.*/not reached/' &
sed 's/^x\|a\([^b]*b\)\{0,1\}/x/g' a256k | sed 's/.*/not reached/' &
jq -R '[match("\\bx|a([^b]*b)?"; "g")] | "not reached"' a256k &
wait
echo not reached
