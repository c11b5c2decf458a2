# A directory link in the -o tree to the outside directory.
#@ status: any
#@ no-stdout: other.txt
#@ stderr: Permission denied
cat dirlink/secret
ls dirlink
ls dirlink/
echo dirlink/*
cd dirlink && cat secret
