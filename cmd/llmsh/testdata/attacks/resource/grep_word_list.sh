# grep -w with a long fixed-string list overstaying the time limit
# (session 24's leftover, closed in session 25, red team): -w kept the
# list off the Aho-Corasick automaton of grep_pattern_list, so each of
# its strings was compiled as a regexp and each line tried against every
# one of them: both greps below were stopped by their 12 s timeouts
# (24.5 s through the CLI at load 18). The automaton now takes -w too,
# testing the word boundaries around each match as GNU's kwset search
# does (a shorter match at the same start, then a later one): the script
# takes 1.2 s through the CLI. That -w lists take the automaton is
# TestGrepSetAsRegexps's to check.
#@ timeout: 100s
#@ answer-within: 110s
#@ stdout: wo 3|wi 3|done
seq 1 200000 > b
printf 'zz\n0199999z\na 199999 b\n199999\n199999x\n_1\n1-\n' > a
seq 10000000 10000093 | sed 's/^/x_1 /' >> a
printf '%s %s|' wo "$(timeout 12 grep -owF -f b a | wc -l)"
printf '%s %s|' wi "$(timeout 12 grep -cwiF -f b a)"
rm a b
echo done
