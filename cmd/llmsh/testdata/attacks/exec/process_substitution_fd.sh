# The /dev/fd/N path of a process substitution is llmsh's, not the host's:
# guessing other numbers, or reusing one after the command, opens nothing.
#@ status: any
#@ no-stdout: {
echo <(true)
cat /dev/fd/3 /dev/fd/4 /dev/fd/63 /dev/fd/64
p=<(echo y); cat "$p"; cat "$p"
