# [[ s =~ $p ]] with a huge pattern overstaying the time limit (session
# 23's leftover, closed in session 24, red team): the compile looks at no
# context and takes time in proportion to the pattern (a 2 MB
# alternation: 2-7 s and 225 MB; a variable may hold 256 MB), so a
# library Session.Run went on past its limit for as long as the compile
# took. A pattern over 1 MiB now fails at once with status 2, as bash's
# does when glibc's regcomp runs out of memory (bash took 20 s for a
# 210 KB alternation, and was killed on this one).
#@ timeout: 10s
#@ answer-within: 15s
#@ stdout: big 2|small 0|done
p=$(seq 100000 399999 | paste -sd'|')
[[ 250000 =~ $p ]]; printf 'big %s|' $?
[[ 250000 =~ ${p:0:70000} ]]; printf 'small %s|' $?
echo done
