# paste's -d list decoded into a slice of its own for each delimiter
# (session 28, red team): a list of 100 MB made 100 million slices of one
# byte, 800 MB and 10 s of work that looks at no context, which the CLI
# ended as stuck at its 10 s limit ("the script did not stop"). The list
# is now two bytes a delimiter: 1.0 s and 590 MB in all.
#@ heavy
#@ stdout: 3
#@ no-stderr: did not stop
echo x | paste -d "$(printf %0100000000d 0)" - - | wc -c
