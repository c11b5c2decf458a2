# A relative link (../out/secret) in the -o tree.
#@ status: 1
#@ stderr: Permission denied
cat link-rel
head -c 100 link-rel
