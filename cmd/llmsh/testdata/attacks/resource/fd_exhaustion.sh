# Descriptors opened without end: vfsd's handle limit answers "Too many
# open files" (it said "File too large"), and the session goes on once
# one is closed.
#@ status: 0
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
