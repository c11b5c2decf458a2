# Recursive grep from above the grants for the marker's prefix.
#@ status: any
#@ no-stdout: @OUT@
grep -r MARK ..
grep -rl MARK @OUT@
grep -R MARK .
