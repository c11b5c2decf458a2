# A script past the 16 MiB bound (a here-document): refused before
# parsing. 24 MiB proves it as the 100 MB of the report did, without
# building and piping 100 MB under the race detector.
#@ heavy
#@ big: 25165824
#@ status: 2
#@ stderr: script too large
cat <<'EOF' | wc -c
@BIG@
EOF
