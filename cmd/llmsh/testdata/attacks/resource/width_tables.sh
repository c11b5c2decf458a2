# Widths and positions of 2 GB that cut, od and nl turned into buffers made
# at once: cut -c 2000000000- built two 2 GB tables, od -w2000000000 two
# 2 GB blocks, nl -w 2000000000 a 2 GB prefix and a 2 GB line (under
# ulimit -v 5 GB, Go's "fatal error: out of memory"). Now cut keeps small
# tables and looks at its ranges past them, od's block grows with the
# input, and nl writes its padding a piece at a time under the output cap.
#@ args: -i @RO@ -o @RW@ --timeout 20s --max-output 1000000
#@ status: nonzero
#@ stdout: cut=0 od=0
#@ stdout: 0000000 005170
#@ stderr: output limit exceeded
cut -c 2000000000- <<< x; a=$?
od -w2000000000 <<< x; b=$?
echo "cut=$a od=$b"
nl -w 2000000000 <<< x
