# Descriptors of virtual files and process substitutions taken without
# end by {NAME}>FILE (session 24, red team): /dev/null, a pipe of <( ) and
# the like are not vfsd handles, so vfsd's 4096 (fd_exhaustion) did not
# bound them; {fd} took numbers past the 65536 of explicit ones, each
# search from 10 walking the table (100000 took over 20 s), and in a
# long-lived session they stayed across Runs (5 KB each with a process
# substitution). Descriptors now stop at the 1024 that `ulimit -n`
# reports, as bash's at its limit: the same messages and statuses.
#@ stdout: broke at 1015 st=1|1023|st=0|st=1|closed 1023|reused 1023|done
#@ stderr: llmsh: redirection error: cannot duplicate fd: Too many open files
#@ stderr: 1024: Bad file descriptor
for i in {1..3000}; do
  exec {fd}< <(:) || { printf 'broke at %s st=%s|' $i $?; break; }
done
printf '%s|' $fd
exec 1023</dev/null; printf 'st=%s|' $?
exec 1024</dev/null; printf 'st=%s|' $?
exec {fd}>&-; printf 'closed %s|' $fd
exec {x}</dev/null; printf 'reused %s|' $x
echo done
