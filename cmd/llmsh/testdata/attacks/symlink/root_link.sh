# A link to / inside the -o tree.
#@ status: any
#@ no-stdout: root:
#@ no-stdout: passwd
cat rootlink/etc/passwd
ls rootlink
ls rootlink/etc
cat rootlink@SECRET@
