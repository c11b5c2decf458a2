# a long pipe sorted without -S: its buffer is sized as GNU's is for an
# input of unknown size, so the input goes in runs to /tmp; under --strict
# /tmp is refused, so the rest of the input is sorted in memory, the
# output whole and nothing left anywhere
#@ args: -i @RO@ -o @RW@ --strict --timeout 20s
#@ stdout: 1 300000 300000 end
#@ no-stderr: sort:
#@ no-stderr: discarded virtual files
seq 300000 | sort -n | sed -n '1p;$p' | tr '\n' ' '
seq 300000 | sort -rn | wc -l | tr '\n' ' '
echo end
