# Long names made by rename (session 22, red team): a new file pays for
# its directory entry and inode (write/entry_budget), but a rename to a
# new name paid nothing, so `: > a; mv a LONG` made a 245-byte name for
# the 268 bytes of `a`, about half of what it takes (512). A rename to a
# new name now pays for its entry (8 + the name padded to 4: 256 bytes
# here), so after the directory d (4096 + 268) the 60 KiB and the 8 KiB
# of names that are free (session 32) make 124 rounds of 268 + 256; the
# 125th `: > a` fits, its mv does not. A rename onto
# an existing name costs nothing.
#@ args: -i @RO@ -o @RW@ --max-write 60K --timeout 20s
#@ stdout: made 124
#@ stdout: onto 0
#@ stderr: File too large
mkdir d && cd d || exit
pad=$(printf '%0242d' 0)
i=0
while [ $i -lt 400 ]; do
	: > a 2>/dev/null && mv a "$(printf '%03d' $i)$pad" || break
	i=$((i + 1))
done
echo "made $i"
mv a "000$pad"
echo "onto $?"
