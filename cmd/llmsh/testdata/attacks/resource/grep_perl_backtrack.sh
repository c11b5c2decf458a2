# Catastrophic backtracking in grep -P (a pattern with look-ahead goes to
# the backtracking engine, which cannot be cancelled): each match was
# bounded only by its own 10 s limit, so a library Session.Run or a serve
# run went on about 10 s past a 2 s time limit. The engine now gets no
# more time than is left before the run's deadline.
#@ timeout: 1s
#@ status: 124
#@ stderr: timed out after 1s
a=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
for i in 1 2 3 4 5 6 7 8; do echo "$a!"; done > lines
grep -P '^(a+)+(?=$)' lines lines lines
grep -oP '(a|aa)+(?=b)' lines
