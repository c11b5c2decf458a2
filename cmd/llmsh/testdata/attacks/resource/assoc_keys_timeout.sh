# The keys of an associative array of many keys overstaying the time limit
# where no process ends with the run (session 26, red team): ${!m[*]},
# ${m[*]}, ${#m[@]}, ${m[@]@K} and declare -p sorted every key in one
# sort that looked at no context, hashing both keys of each comparison:
# with a million keys built beforehand, `k="${!m[*]}"` answered a library
# Session.Run with a 300 ms limit after 9.4 s (1.8 s of CPU, load 24),
# `v="${m[*]}"` after 4.9 s, `declare -p m` after 3.7 s. The keys are now
# placed by a counting sort over bash's buckets, looking at the context
# every 4096 keys: 0.3 to 0.4 s.
#@ timeout: 6s
#@ answer-within: 20s
#@ status: 124
#@ stderr: timed out after 6s
#@ no-stdout: not reached
declare -A m
for k in $(seq 400000); do m[$k]=; done
while :; do
	k="${!m[*]}" v="${m[*]}" n=${#m[@]}
	declare -p m > /dev/null
done
echo not reached
