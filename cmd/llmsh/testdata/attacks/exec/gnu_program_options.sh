# GNU options that start helper programs: sort --compress-program, tar -I,
# --to-command, --checkpoint-action, --use-compress-program.
#@ status: any
seq 1 10 | sort --compress-program=@CANARY@ -S 1
tar -I @CANARY@ -cf a.tar work.txt
tar --use-compress-program=@CANARY@ -cf b.tar work.txt
tar cf c.tar work.txt
tar --to-command=@CANARY@ -xf c.tar
tar --checkpoint=1 --checkpoint-action=exec=@CANARY@ -cf d.tar work.txt
