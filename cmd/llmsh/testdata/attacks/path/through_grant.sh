# Start inside a grant, then .. out of it; also with ./ and // noise.
#@ status: 1
#@ stderr: cat: @RO@/../out/secret: Permission denied
#@ stderr: cat: @RW@/./../out/./secret: Permission denied
cat @RO@/../out/secret
cat @RW@/./../out/./secret
cat @RO@//..//out//secret
