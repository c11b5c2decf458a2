# Globs that climb: **, /*/*, ../*.
#@ status: any
#@ no-stdout: other.txt
shopt -s globstar dotglob nullglob
echo /*/* ../**/secret ../*/*
for f in ../*/*; do cat "$f"; done
