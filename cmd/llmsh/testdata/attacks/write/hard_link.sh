# Writing through a hard link planted in the writable grant whose other
# name (@OUT@/linked.txt) lies outside it (issue 18: ">>" changed the file
# outside). Every write through a file with other hard links is refused
# with the reason; reading it, and removing or renaming the name in the
# grant, stay allowed.
#@ status: 0
#@ stdout: linked outside
#@ stdout: refused 11
#@ stdout: removed 0
#@ stdout: fresh
#@ stdout: no ln
#@ stderr: llmsh: line 18: hardlink: Permission denied (file has other hard links, which may lie outside the grants)
#@ stderr: cp: cannot create regular file 'hardlink': Permission denied (file has other hard links
#@ stderr: chmod: changing permissions of 'hardlink': Permission denied (file has other hard links
#@ stderr: touch: cannot touch 'hardlink': Permission denied (file has other hard links
cat hardlink
n=0
echo appended >> hardlink || n=$((n+1))
echo replaced > hardlink || n=$((n+1))
: > hardlink || n=$((n+1))
exec 3<> hardlink && { echo rw >&3; exec 3>&-; } || n=$((n+1))
printf x | tee -a hardlink >/dev/null || n=$((n+1))
cp work.txt hardlink || n=$((n+1))
sed -i s/linked/changed/ hardlink 2>/dev/null; n=$((n+1))
chmod 600 hardlink || n=$((n+1))
touch hardlink || n=$((n+1))
touch -d 2000-01-01 hardlink || n=$((n+1))
ln hardlink second 2>/dev/null || echo no ln
awk 'BEGIN { print "awk" >> "hardlink"; close("hardlink") }' 2>/dev/null; n=$((n+1))
echo refused $n
cat hardlink
# The name in the grant can go; a new file by that name is a new file.
mv hardlink moved && rm moved; echo removed $?
echo fresh > hardlink && cat hardlink
