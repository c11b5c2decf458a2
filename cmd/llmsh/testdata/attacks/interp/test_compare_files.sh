# -nt, -ot and -ef compare host files' metadata. The secret looks absent,
# so it is not newer, it is older (as bash says of a missing file), and it
# is not the same file as anything.
#@ stdout: 1 0 1
[ @SECRET@ -nt @RO@/in.txt ]; a=$?
[ @SECRET@ -ot @RO@/in.txt ]; b=$?
[ @SECRET@ -ef @OUT@/secret ]; c=$?
echo $a $b $c
