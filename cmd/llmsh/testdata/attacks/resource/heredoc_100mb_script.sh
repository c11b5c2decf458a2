# A script past the 16 MiB bound (a here-document): refused before
# parsing. 24 MiB proves it as the 100 MB of the report did, without
# building and piping 100 MB under the race detector.
#@ heavy
#@ big: 25165824
# Its 24 MiB reach llmsh through a pipe that the test binary fills: a
# few hundred hand-overs between the two processes, 0.4 s of CPU, but
# 18-38 s of wall at load 17-25 (session 26: three runs of three met
# the 10 s limit). A limit that load is far from, and not what it tests.
#@ timeout: 100s
#@ status: 2
#@ stderr: script too large
cat <<'EOF' | wc -c
@BIG@
EOF
