# A glob that reads a FIFO as a directory (fifo/*, globstar's walk over a
# tree holding one) made vfsd open it for listing, which blocked until a
# writer came: the run hung until its timeout and a serve session stayed
# busy for ever. Listing one is "not a directory" at once.
#@ args: -i @RO@ -o @RW@ -i @SPECIAL@ --timeout 20s
#@ status: 0
#@ stdout: fifo/*: @SPECIAL@/fifo/*
#@ stdout: sock/*: @SPECIAL@/sock/*
#@ stdout: globstar: @SPECIAL@/ @SPECIAL@/fifo @SPECIAL@/sock
#@ stdout: nullglob: []
#@ stdout: cd: 1
#@ stderr: cd: @SPECIAL@/fifo: Not a directory
#@ stdout: done
s=@SPECIAL@
echo "fifo/*: $(echo $s/fifo/*)"
echo "sock/*: $(echo $s/sock/*)"
shopt -s globstar
echo "globstar: $(echo $s/**)"
shopt -s nullglob dotglob
x=($s/fifo/* $s/fifo/**/x)
echo "nullglob: [${x[*]}]"
shopt -u nullglob dotglob globstar
cd $s/fifo; echo "cd: $?"
echo done
