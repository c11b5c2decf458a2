# jq's functions that turn a string into an array of its characters or
# matches in one step overstaying the time limit where no process ends
# with the run (session 21, red team): a library Session.Run with a 1 s
# limit answered after 37 s for "x" * 100000000 | split(""), 41 s for
# explode of 256 MB, 71 s for indices("b") of 100 MB of "ab" (both
# strings exploded, then compared position by position), at 3-5 GB of
# heap. Each now looks at the run's context every 65536 items
# (third_party/gojq/bulk.go), and index, rindex and indices search the
# bytes of valid UTF-8 (32 MB without a match: at once).
#@ timeout: 20s
# Its library run answers in about 6 s at load 24, and took over 12 s
# at load 40 (session 23): 18 s, still short of the run's own limit.
#@ answer-within: 18s
#@ stdout: split 124|explode 124|divide 124|indices 124|index 0|done
#@ no-stdout: not reached
t() { name=$1; shift; timeout 0.2 jq -n "$@"; printf '%s %s|' "$name" $?; }
t split '"x" * 33554432 | split("") | "not reached"'
t explode '"x" * 33554432 | explode | "not reached"'
t divide '"x" * 33554432 / "" | "not reached"'
t indices '"ab" * 16777216 | indices("b") | "not reached"'
timeout 5 jq -n '"x" * 33554432 | [index("y"), rindex("y"), indices("y")] | empty'; printf 'index %s|' $?
echo done
