# Commands gathering one endless line of /dev/zero (session 20, red
# team): rev, cut (and the other users of the shared line reader), sed,
# uniq, nl, look, envsubst, numfmt, diff, join read a line up to its
# delimiter without looking at the run's context, so `cut -c1 /dev/zero`
# in a library Session.Run with a 1 s limit was still growing 60 s later
# (11 GB; others ended in Go's `fatal error: out of memory`); `split -b 1
# /dev/zero` made 65536 files a read (GNU's suffixes grow without end)
# without a look. A device is now read through a reader that fails once
# the command's context is done, `< /dev/zero` included, and `read`
# looks at its context as it reads such an input, as `$(< FILE)` does
# (it copied /dev/urandom up to the 256 MiB value bound: 5 s for 1 s).
# Each command must end with the `timeout` that runs it (124), without
# a "cancelled" message, and at once: before, `timeout` gave up on its
# command after the shell's 1 s grace and left it reading (and growing)
# in the background, so the library and serve runs took 18 s and 11 s
# (answer-within), where they now take 3 s. Since session 28 look
# searches as util-linux's does, by the file's size, so it reads
# nothing of a device: "look: /dev/zero: Invalid argument", 1, as the
# host's look says.
#@ timeout: 15s
#@ answer-within: 12s
#@ stdout: rev 124|cut 124|sed 124|uniq 124|nl 124|look 1|envsubst 124|numfmt 124|diff 124|join 124|split 124|unzip 124|redir 124|fd 124|read 124|subst 124|factor 124|jq 124|done
#@ no-stderr: cancelled
t() { name=$1; shift; timeout 0.05 "$@"; printf '%s %s|' "$name" $?; }
t rev rev /dev/zero
t cut cut -c1 /dev/zero
t sed sed q /dev/zero
t uniq uniq /dev/zero
t nl nl /dev/zero
t look look a /dev/zero
t envsubst sh -c 'envsubst < /dev/zero'
t numfmt sh -c 'numfmt < /dev/full'
t diff diff /dev/zero /dev/urandom
t join join /dev/zero /dev/zero
mkdir sp && cd sp && t split split -b 1 /dev/zero && cd .. && rm -r sp
t unzip unzip /dev/zero
t redir sh -c 'rev < /dev/zero'
t fd sh -c 'exec 3< /dev/zero; cut -c1 <&3'
t read sh -c 'read x < /dev/zero'
t subst sh -c 'x=$(< /dev/urandom)'
t factor sh -c 'factor < /dev/zero'
t jq jq -R -s . /dev/zero
echo done
