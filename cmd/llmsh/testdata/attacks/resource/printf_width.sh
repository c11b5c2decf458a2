# A 2 GB field width, under an output cap.
#@ args: -i @RO@ -o @RW@ --timeout 10s --max-output 1000000
#@ status: nonzero
#@ stderr: output limit exceeded
printf '%*s' 2000000000 x
