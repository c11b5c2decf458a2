# A command gathering one line of a huge file past its time limit
# (session 22, red team): a file's reads looked at no context (only an
# endless device's did), so `cut -c1 f` of a 6 GB file without a newline
# (sparse: `truncate -s 6G`, within the default 10 GiB write budget)
# gathered the whole line whatever the limit: a library Session.Run with
# a 1 s limit took 101 s and 19.7 GB of heap, `rev f` was ended by the
# kernel's out-of-memory killer; here `timeout` gave up on the command and
# it grew on until the memory guard ended the run (125). A command's reads
# of a file it opens, or of a file redirected to it, now fail once its
# context is done (vfsclient File.SetStop, shell stoppableRedir).
# CLI only (its own args): without the memory guard the library run of a
# build without the fix would take the test binary's host to its limit.
#@ args: -i @RO@ -o @RW@ --timeout 20s
#@ stdout: operand 124|redir 124|fd 124|stdin 124|read 124|rev 124|done
#@ no-stderr: memory limit
truncate -s 6G f || exit
t() { name=$1; shift; timeout 0.3 "$@"; printf '%s %s|' "$name" $?; }
t operand cut -c1 f
t redir sh -c 'cut -c1 < f'
t fd sh -c 'exec 3< f; cut -c1 <&3'
t stdin sh -c 'cut -c1 /dev/stdin < f'
t read sh -c 'read -r x < f'
t rev rev f
rm f
echo done
