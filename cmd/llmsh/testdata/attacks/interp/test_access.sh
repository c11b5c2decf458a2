# test -r/-w/-x/-e use access(2)/stat(2) on the host in interp: here
# they say nothing about files outside the grants.
#@ stdout: 1 1 1 1 1 1
test -r @SECRET@; a=$?
test -w @SECRET@; b=$?
test -x @CANARY@; c=$?
test -e @SECRET@; d=$?
[[ -f @SECRET@ ]]; e=$?
[ -s @OUT@/other.txt ]; f=$?
echo $a $b $c $d $e $f
