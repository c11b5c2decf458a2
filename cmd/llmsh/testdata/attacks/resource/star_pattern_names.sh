# A pattern of many stars against a long name (session 18, red team):
# bash's matcher tried every split for each *, in time of the power of
# the number of stars: find -name, ls -I, a glob, case and [[ ]] with
# '*a*a*a*a*a*a*a*a*a*b' on a name of 200 a's ran past 100 s, and find
# and ls -I looked at no context. A pattern without extended parts is
# now matched in time linear in the name times the pattern.
#@ stdout: none
#@ stdout: *a*a*a*a*a*a*a*a*a*b
n=$(printf 'a%.0s' {1..200})
: > "$n"
p='*a*a*a*a*a*a*a*a*a*b'
find . -name "$p"
ls -I "$p" | wc -l
echo $p
case $n in $p) echo matched ;; *) echo none ;; esac
[[ $n == $p ]] || echo none
