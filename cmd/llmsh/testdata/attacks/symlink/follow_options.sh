# The options of sessions 13 and 14 that follow links or take names from
# a file, given links of the -o tree that lead out of the grants: none
# reads, copies, lists or stats what they point to (T-LINK-*). The marker
# must not appear; the host files must stay as they were.
#@ status: any
#@ stdout: ls -L: Permission denied
#@ stdout: env -C: Permission denied
#@ stdout: tree: [error opening dir]
#@ no-stdout: secret-copied
printf '%s\n' link-abs dirlink/secret rootlink@OUT@/secret > /tmp/list
printf '%s\0' link-abs dirlink/secret > /tmp/list0
ls -L link-abs 2>&1 | sed 's/.*: /ls -L: /'
ls -lL --author -Z -i link-abs dirlink rootlink/ 2>&1
ls -LR dirlink rootlink 2>&1
env -C dirlink cat secret 2>&1 | sed 's/.*: /env -C: /'
env -C rootlink@OUT@ cat secret 2>&1
tree -l dirlink 2>&1 | head -1 | sed 's/^dirlink */tree: /'
tree -l -J . 2>&1
tree --fromfile /tmp/list 2>&1
tree --gitignore -a dirlink rootlink 2>&1
du -L --files0-from=/tmp/list0 2>&1
du -aL . 2>&1
wc --files0-from=/tmp/list0 2>&1
file -L -f /tmp/list 2>&1
tar chf /tmp/a.tar -T /tmp/list 2>&1; tar tvf /tmp/a.tar 2>&1
tar rhf /tmp/a.tar link-abs dirlink 2>&1
cp -L --parents link-abs dirlink/secret /tmp 2>&1
cp -rL . /tmp/c 2>&1; cat /tmp/c/link-abs /tmp/c/dirlink/secret 2>&1 && echo secret-copied
cp -u -L link-abs /tmp/u 2>&1; cat /tmp/u 2>&1 && echo secret-copied
split -b 4 link-abs /tmp/sp 2>&1; cat /tmp/sp* 2>&1 && echo secret-copied
touch -r link-abs /tmp/r 2>&1
diff --from-file=link-abs work.txt 2>&1
diff -r --from-file=. dirlink 2>&1
realpath --relative-base=dirlink dirlink/secret 2>&1
realpath -e --relative-to=rootlink link-abs 2>&1
nohup cat link-abs dirlink/secret 2>&1
stdbuf -oL nice env cat link-abs 2>&1
