# interp's here-documents and here-strings would use $TMPDIR files.
#@ stdout: a\nb\n
TMPDIR=@OUT@
export TMPDIR
cat <<< a
cat <<EOF
b
EOF
