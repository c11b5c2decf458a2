# Every reader refuses the secret: no content, no size, no digest.
#@ status: any
#@ no-stdout: 10
#@ stderr: No such file or directory
wc -c @SECRET@
sort @SECRET@
md5sum @SECRET@
sha256sum @SECRET@
od -c @SECRET@
xxd @SECRET@
base64 @SECRET@
tac @SECRET@
rev @SECRET@
cut -c1- @SECRET@
diff @SECRET@ @RO@/in.txt
cmp @SECRET@ @RO@/in.txt
stat @SECRET@
du -b @SECRET@
