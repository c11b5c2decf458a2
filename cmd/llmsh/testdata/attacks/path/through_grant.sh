# Start inside a grant, then .. out of it; also with ./ and // noise.
#@ status: 1
#@ stderr: cat: @RO@/../out/secret: No such file or directory
#@ stderr: cat: @RW@/./../out/./secret: No such file or directory
cat @RO@/../out/secret
cat @RW@/./../out/./secret
cat @RO@//..//out//secret
