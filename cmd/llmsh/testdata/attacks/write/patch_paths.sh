# patch with file names that climb out (../, absolute), name a link in the
# -o tree that leads out (a directory link, a file link), or create a new
# file through the directory link. Nothing outside changes; the new file
# through the link is refused as Permission denied (it said "File exists":
# patch took the unreachable parent for a missing one and tried mkdir).
#@ status: 0
#@ stdout: climb=1 abs=1 filelink=1 create=2
#@ stdout: Ignoring potentially dangerous file name ../
#@ stderr: Can't create file dirlink/new : Permission denied
#@ no-stderr: File exists
s=$(basename @SECRET@)
printf -- '--- a/../out/%s\n+++ b/../out/%s\n@@ -0,0 +1 @@\n+pwn\n' "$s" "$s" > d1
patch -p1 -f < d1; a=$?
printf -- '--- @SECRET@\n+++ @SECRET@\n@@ -1 +1 @@\n-x\n+pwn\n' > d2
patch -p0 -f < d2; b=$?
printf -- '--- link-abs\n+++ link-abs\n@@ -1 +1 @@\n-x\n+pwn\n' > d3
patch -p0 -f < d3; c=$?
printf -- '--- /dev/null\n+++ dirlink/new\n@@ -0,0 +1 @@\n+pwn\n' > d4
patch -p0 -f < d4; d=$?
echo "climb=$a abs=$b filelink=$c create=$d"
