# sed's search of a long pattern space overstaying the time limit
# (session 17, red team): one match of a 16 MB line took a minute
# (`[a-z]{1,30}Q`, leftmost-longest) without looking at the run's
# context, so a library Session.Run with a 1 s limit answered after 59 s
# (this 16 MB line too). A pattern space of a megabyte or more is
# now read through a reader that looks at the context (posixre's
# MatchContext, FindAllContext).
#@ timeout: 3s
#@ status: 124
#@ stderr: timed out after 3s
awk 'BEGIN { s = "ab"; for (i = 0; i < 23; i++) s = s s; print s }' > big
sed -E 's/[a-z]{1,30}Q//' big | wc -c
echo "not reached"
