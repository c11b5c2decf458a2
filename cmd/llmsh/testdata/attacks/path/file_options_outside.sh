# Options that name files: xargs -a, paste, join, comm, tee input, diff -r.
#@ status: any
#@ stderr: No such file or directory
xargs -a @SECRET@ echo
paste @SECRET@ @RO@/in.txt
join @SECRET@ @SECRET@
comm @SECRET@ @RO@/in.txt
diff -r @OUT@ @RO@
jq --rawfile s @SECRET@ -n '$s'
jq --slurpfile s @SECRET@ -n '$s'
