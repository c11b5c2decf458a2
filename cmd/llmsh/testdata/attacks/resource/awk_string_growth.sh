# Strings that awk doubles, multiplies with gsub, or joins with a huge OFS
# or SUBSEP: each was one allocation of gigabytes between two context
# checks (the process ran out of memory and crashed); now each stops at
# the value bound with awk's fatal error: 256 MiB under the default
# memory limit, an eighth of --max-memory (session 30), 32 MiB here,
# which needs an eighth of the work.
#@ args: -i @RO@ -o @RW@ --max-memory 256M --timeout 60s
#@ status: 2
#@ stdout: doubling=2 triple=2 gsub=2 ofs=2 subsep=2
#@ stderr: awk: fatal: string too long (more than 33554432 bytes)
#@ no-stdout: 1099511627776
awk 'BEGIN { s = "a"; for (i = 0; i < 40; i++) s = s s; print length(s) }'; a=$?
awk 'BEGIN { s = "a"; for (i = 0; i < 40; i++) s = s s s; print length(s) }'; b=$?
awk 'BEGIN { m = "b"; for (i = 0; i < 20; i++) m = m m; s = sprintf("%4000s", ""); gsub(/ /, m, s); print length(s) }'; c=$?
awk 'BEGIN { m = "b"; for (i = 0; i < 20; i++) m = m m; OFS = m; NF = 1000000; print length($0) }'; d=$?
awk 'BEGIN { m = "b"; for (i = 0; i < 24; i++) m = m m; SUBSEP = m; a[1, 2, 3] = 1; print length(a) }'; e=$?
echo "doubling=$a triple=$b gsub=$c ofs=$d subsep=$e"
exit $e
