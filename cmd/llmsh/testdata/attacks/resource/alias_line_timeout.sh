# A line of 10000 aliases whose value is not plain words: each expansion
# parses the rest of the line again (10000 parses of 220 KB). The reader
# did not look at the run's context while it expanded, so the time limit
# could not stop it: the CLI ended only by its watchdog's exit, and
# Session.Run (library, serve worker) returned minutes past its limit.
# The expansion now stops when the run is stopped.
#@ timeout: 1s
#@ status: 124
#@ stderr: timed out after 1s
#@ no-stdout: not reached
shopt -s expand_aliases
alias b='{ :; }'
line=$(printf 'b;%.0s' {1..10000})
eval "$line : $(printf '%200000s' '') ; echo not reached"
echo not reached either
