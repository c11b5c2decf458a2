# awk's split of a long record into fields overstaying the time limit
# (session 22, red team): `$0 = s` of 32M fields made them all in one
# strings.Fields or strings.Split call, which looked at nothing, so a
# library Session.Run with a 1 s limit answered after 3.8 s (FS " "),
# 3.6 s (FS ",") and 5.6 s (FS "", 64M fields). A record of 64 KiB or
# more is now split field by field, looking at the run's context every
# 65536 (goawk fork, ensureFields): 1.2, 1.2 and 1.4 s.
#@ timeout: 1s
#@ answer-within: 4s
#@ status: 124
#@ stderr: timed out after 1s
#@ no-stdout: not reached
awk -v FS= 'BEGIN { s = "ab"; while (length(s) < 2^26) s = s s; $0 = s; print "not reached", NF }'
