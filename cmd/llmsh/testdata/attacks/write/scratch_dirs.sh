# Scratch directories outside the grants are virtual (issue 20, item 6):
# mkdir -p, touch, mktemp -d, cd, globbing, find, cp -r, mv, rm -r and
# rmdir work on them as on real ones, nothing reaches the host (the
# harness checks), and what is left is named at exit, an empty directory
# with a slash.
#@ status: 0
#@ stdout: /tmp/work\n/tmp/work/sub/x
#@ stdout: tmpdir ok: hi
#@ stdout: no /x
#@ stdout: /tmp/work\n/tmp/work/sub\n/tmp/work/sub/x\nfound
#@ stdout: moved: x
#@ stdout: rmdir non-empty: 1
#@ stdout: gone: 2
#@ stdout: out/d: 1
#@ stderr: rmdir: failed to remove '/tmp/moved/sub': Directory not empty
#@ stderr: mkdir: cannot create directory '@OUT@/d': No such file or directory
#@ stderr: discarded virtual files: /tmp/keep/ /tmp/t /tmp/work/sub/x
mkdir -p /tmp/work/sub && touch /tmp/t && cd /tmp/work && echo hi > sub/x && pwd
echo /tmp/w*/*/x
d=$(mktemp -d) && echo hi > "$d/x" && echo "tmpdir ok: $(cat "$d/x")"
[ ! -e /x ] && echo "no /x"
find /tmp/work && echo found
cp -r /tmp/work /tmp/copy && mv /tmp/copy /tmp/moved && echo "moved: $(ls /tmp/moved/sub)"
rmdir /tmp/moved/sub; echo "rmdir non-empty: $?"
rm -r /tmp/moved; ls /tmp/moved 2>/dev/null; echo "gone: $?"
mkdir /tmp/keep
rm -r "$d"
# The host has @OUT@; here it is absent, so nothing can be made in it.
mkdir @OUT@/d; echo "out/d: $?"
cd /
