# FIFOs and sockets inside a grant (issue 18: they looked like regular
# files, and a FIFO must never stall vfsd). They show with their type in
# test, [[ ]], find, ls -l and stat; opening one, for reading or writing,
# is refused at once with the reason instead of blocking.
#@ args: -i @RO@ -o @RW@ -i @SPECIAL@ --timeout 20s
#@ status: 0
#@ stdout: fifo: p
#@ stdout: sock: S
#@ stdout: not files
#@ stdout: find p: @SPECIAL@/fifo
#@ stdout: find s: @SPECIAL@/sock
#@ stdout: prw-r--r--
#@ stdout: srwx
#@ stdout: @SPECIAL@/fifo fifo
#@ stdout: @SPECIAL@/sock socket
#@ stdout: refused 8
#@ stdout: done
#@ stdout: grep -r skips them: 1
#@ stderr: cat: @SPECIAL@/fifo: Invalid argument (not a regular file: llmsh opens no fifo, socket or device)
s=@SPECIAL@
test -p $s/fifo && echo fifo: p
[[ -S $s/sock ]] && echo sock: S
test -f $s/fifo || test -f $s/sock || echo not files
echo find p: $(find $s -type p)
echo find s: $(find $s -type s)
ls -l $s
stat -c '%n %F' $s/fifo $s/sock
n=0
cat $s/fifo || n=$((n+1))
wc -c < $s/fifo 2>/dev/null || n=$((n+1))
head -c 1 $s/sock 2>/dev/null || n=$((n+1))
grep x $s/fifo 2>/dev/null; [ $? = 2 ] && n=$((n+1))
grep -r x $s; echo "grep -r skips them: $?"
echo x > $s/fifo 2>/dev/null || n=$((n+1))
echo x >> $s/fifo 2>/dev/null || n=$((n+1))
exec 3< $s/fifo 2>/dev/null || n=$((n+1))
read -r line < $s/fifo 2>/dev/null || n=$((n+1))
echo refused $n
echo done
