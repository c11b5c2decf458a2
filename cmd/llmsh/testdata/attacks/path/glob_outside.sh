# Globs over a directory outside the grants match nothing.
#@ stdout: @OUT@/*
#@ no-stdout: other.txt
echo @OUT@/*
echo ../out/s*
echo ../*/secret
