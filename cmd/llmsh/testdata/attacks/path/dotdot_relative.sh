# A relative path that climbs out of the working directory (the -o tree).
#@ status: 1
#@ stderr: cat: ../out/secret: No such file or directory
cat ../out/secret
