# A value whose subscript names the variable again ($((y)) with y='x[y]')
# was evaluated afresh at each subscript, so the recursion bound never
# applied: Go's stack overflowed (a fatal error that ends every session of
# a serve process). Bash's recursion message, status 1, in time.
#@ status: 1
#@ stderr: x[y]: expression recursion level exceeded (error token is "x[y]")
#@ stderr: a[a[0]]: expression recursion level exceeded
#@ stderr: b[y]: expression recursion level exceeded
#@ no-stdout: reached
( y='x[y]'; x=y; echo $((y)); echo reached )
( a=(0); a[0]='a[a[0]]'; echo $((a[0])); echo reached )
y='b[y]'; b=(1 2); echo "${b[y]}"; echo reached
