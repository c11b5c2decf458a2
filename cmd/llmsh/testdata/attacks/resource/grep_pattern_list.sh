# grep with a huge pattern list overstaying the time limit (session 23's
# leftover, red team): each pattern of `-f b` was compiled as a regexp and
# all of them joined into one alternation for Go's regexp, none of it
# looking at the run's context, so `grep -F -f b a` with b the first 20 MB
# of `seq 1 20000000` answered a library Run with a 1 s limit after 3 min
# 24 s at 6.2 GB of heap; this script took 88 s through the CLI at load
# 15 (3.1 s now). Fixed strings (-F, or patterns without special
# characters) now go to an Aho-Corasick automaton built with checks of the
# context; other lists stop between two patterns' compiles, and an
# alternation over 1 MiB is not compiled for the buffer scan.
# That the lists take the automaton is TestGrepSetAsRegexps's to check,
# and that a build or a compile stops with its context TestGrepSetStops's;
# here that the answers of lists of 300000 are right and that a slow
# list stops at its timeout (regexps 124): with the automaton turned off
# (session 30) this script still passed, in 29 s. The regexps' list runs
# 2.4 s through the static CLI: its timeout of 0.2 s (0.5 before
# session 26) ends it midway still.
# CLI only (its own args; session 30): the library run put the same
# greps under the race detector, 7.7 s of CPU against the CLI's 0.6 s
# (bench/testcpu.py, load 18), where what it could see besides (a race
# in grep's set building or its reads) the builtins' grep tests race.
#@ args: -i @RO@ -o @RW@ --timeout 60s
#@ stdout: F 2|x 1|list 2|o 2|regexps 124|done
#@ no-stdout: not reached
seq 1 300000 > b
printf 'zz\n0299999z\nabc\n299999\n' > a
t() { name=$1; shift; timeout "$@"; printf '%s %s|' "$name" $?; }
printf '%s %s|' F "$(timeout 60 grep -cF -f b a)"
printf '%s %s|' x "$(timeout 60 grep -cxF -f b a)"
printf '%s %s|' list "$(timeout 60 grep -c -f b a)"
printf '%s %s|' o "$(timeout 60 grep -o -f b a | wc -l)"
seq -f '%g.' 1 300000 > c
t regexps 0.2 grep -c -f c a
rm a b c
echo done
