# A 100 MB here-document built at run time.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 30s
#@ stdout: 104857600
x=$(yes | head -c 104857600)
cat <<EOF | wc -c
$x
EOF
