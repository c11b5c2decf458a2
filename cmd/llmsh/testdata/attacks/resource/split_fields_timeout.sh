# Field splitting of a huge value overstaying the time limit and the
# memory guard (session 25, red team): `a=( $x )` (and `set -- $x`, `for
# w in $x`, any unquoted expansion) made every field of x, then the
# list of strings, without looking at the run's context, so a library
# Session.Run with a 3 s limit over this 30 MB value of 15 million words
# answered after 68 s at 2.3 GB (load 45); with 100 MB and a 30 s limit,
# after 203 s at 6.4 GB, its memory guard having fired at 2 GiB. The
# split and the expansion's list now look at the context every 4096
# fields (sh/expand's fieldsCheck): 3.0 s and 176 MB.
#@ timeout: 3s
#@ answer-within: 20s
#@ status: 124
#@ stderr: timed out after 3s
#@ no-stdout: not reached
x=$(yes | head -c 30000000)
a=( $x )
echo not reached
