# A 100 MB script (a here-document): refused before parsing.
#@ heavy
#@ big: 104857600
#@ status: 2
#@ stderr: script too large
cat <<'EOF' | wc -c
@BIG@
EOF
