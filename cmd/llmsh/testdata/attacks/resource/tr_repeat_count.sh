# tr's [c*n] repeat expanded into n bytes (session 28, red team): the
# count may be 2^31-1, so `tr a-z '[x*2000000000]'` made a 2 GB set in
# one step, past --max-memory 1G (2.2 GB of RSS) and 4.8 s past a 5 s
# limit; several such repeats, as many times that. A repeat is now one
# run of the set, as GNU keeps a count: 0.02 s.
#@ stdout: xxx
#@ stdout: zyc
#@ stdout: qyy
#@ stdout: done
echo abc | tr a-z '[x*2000000000]'
echo abc | tr '[a*2000000000]b' '[x*1999999999][z*1]y'
echo abc | tr '[a*2000000000][b*2000000000][c*2000000000]' '[q*2000000000][y*]'
echo done
