# Coprocesses started without end (session 27, red team; a leftover of
# session 26): once descriptors 4 to 63 were taken, each coproc took 3,
# then 2 (stderr itself), replacing the descriptors there without closing
# them, so `while :; do coproc cat; done` made about 5000 coprocesses and
# 20000 pipe descriptors, up to the process's own limit on files, whose
# closing made a 2 s time limit end 0.23-0.8 s late. A coproc now takes
# a free descriptor (the lowest above 2 once 4 to 63 are taken, where
# bash's pipe(2) puts it) and fails at the 1024 of `ulimit -n`: 510
# coprocesses, stderr untouched.
#@ timeout: 30s
#@ answer-within: 40s
#@ stdout: jobs 510|fds ok
#@ stderr: still stderr
#@ no-stderr: coproc: pipe2: too many
for i in $(seq 600); do coproc cat; done 2>/dev/null
printf 'jobs %s|' "$(jobs | wc -l)"
[ "${COPROC[0]}" -gt 2 ] && [ "${COPROC[1]}" -gt 2 ] && echo 'fds ok'
echo still stderr >&2
