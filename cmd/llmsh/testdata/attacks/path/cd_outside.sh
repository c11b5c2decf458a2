# cd out of the grants fails; relative reads stay confined.
#@ status: 1
#@ stdout: @RW@
#@ stderr: Permission denied
cd @OUT@
cd ../out
pwd
cat ../out/secret
