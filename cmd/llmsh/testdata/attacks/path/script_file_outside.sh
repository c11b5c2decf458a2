# Reading a script, an awk program, a sed script or a pattern file from
# outside: a message quoting its content would leak the marker.
#@ status: any
#@ stderr: No such file or directory
source @SECRET@
awk -f @SECRET@
echo x | sed -f @SECRET@
grep -f @SECRET@ @RO@/in.txt
jq -f @SECRET@ -n
bc @SECRET@ </dev/null
sh @SECRET@
