# sed's w to /dev/stdout and to a file outside: no program, no host file.
#@ status: any
#@ stdout: x
echo x | sed -n 'w /dev/stdout'
echo x | sed 's/x/y/w @OUT@/sedw'
