# A brace expansion of 10^8 words is refused, not built: past 256Ki words
# (some 80 MB while the fields are built) the run stops as at any other
# limit. bash would try to build it; {1..100000} runs as in bash.
#@ heavy
#@ status: 125
#@ stderr: limit exceeded: brace expansion would exceed 262144 words
#@ no-stdout: after
echo {1..100000000}
echo after
