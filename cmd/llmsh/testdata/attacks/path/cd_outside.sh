# cd out of the grants fails; relative reads stay confined.
#@ status: 1
#@ stdout: @RW@
#@ stderr: No such file or directory
cd @OUT@
cd ../out
pwd
cat ../out/secret
