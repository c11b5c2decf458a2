# Descriptors opened without end: vfsd's handle limit answers "Too many
# open files" (it said "File too large"), and the session goes on once
# one is closed.
#@ status: 0
# Its library and serve runs take about 10 s under the race detector,
# so a time limit that is not what it tests:
#@ timeout: 60s
#@ stderr: Too many open files
#@ stdout: limit reached
#@ stdout: x after closing one
#@ no-stderr: File too large
echo x > f
for i in $(seq 6000); do
  exec {fd}>>f || { echo "limit reached"; break; }
done
exec 100>&-
echo "$(cat f) after closing one"
