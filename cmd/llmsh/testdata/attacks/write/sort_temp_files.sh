# sort's temporary files (runs of input beyond -S): under --strict a -T
# directory outside the writable paths is refused as any write there is;
# without -T the runs would go to /tmp, refused too, so the input is
# sorted in memory; nothing is left anywhere.
#@ args: -i @RO@ -o @RW@ --strict --timeout 10s
#@ status: 2
#@ stdout: 1 5000
#@ stderr: sort: cannot create temporary file in '@OUT@': Permission denied
#@ no-stderr: discarded virtual files
seq 1 5000 | sort -S 1b -rn | tail -n 1 | tr '\n' ' '
seq 1 5000 | sort -S 1b -n | tail -n 1
seq 1 5000 | sort -S 1b -T @OUT@
