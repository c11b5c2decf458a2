# Page widths, offsets and conversion widths of 2 GB in the formatting
# tools: pr built its header padding and each line's offset as one string
# (an allocation of gigabytes: the process ran out of memory and crashed),
# seq -f formatted a 2 GB conversion per line. pr now writes the blanks a
# piece at a time under the output cap; seq fails as GNU seq does when the
# C library cannot allocate the conversion.
#@ args: -i @RO@ -o @RW@ --timeout 20s --max-output 1000000
#@ status: nonzero
#@ stdout: seq=1,1
#@ stderr: seq: write error: Cannot allocate memory
#@ stderr: output limit exceeded
seq -f '%2000000000g' 1 1; a=$?
seq -f '%.2000000000f' 1 1; b=$?
echo "seq=$a,$b"
pr -o 2000000000 <<< x | head -c 10 | wc -c
pr -w 2000000000 <<< x
