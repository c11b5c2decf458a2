# tar -P extracts absolute and ".." names as they are: vfsd's grants
# decide, so members aimed outside the -o tree change nothing there.
#@ status: any
#@ no-stdout: @SECRET@
echo pwn > f
tar -cPf a.tar @RW@/f
tar -xPf a.tar --transform "s|^@RW@/f|@OUT@/pwn|"
tar -xPf a.tar --transform "s|^@RW@/f|@SECRET@|"
tar -xPf a.tar --transform "s|^@RW@/f|../../../../../../tmp/pwn-tar|"
tar -xPf a.tar --transform "s|^@RW@/f|@RO@/pwn|"
cat @SECRET@
