# -i means read-only, for every kind of write.
#@ status: any
#@ stderr: Permission denied
echo pwn > @RO@/in.txt
echo pwn >> @RO@/in.txt
echo pwn > @RO@/new.txt
rm @RO@/in.txt
mv @RO@/in.txt @RO@/moved
touch @RO@/in.txt
mkdir @RO@/d
sed -i s/r/X/ @RO@/in.txt
cp @RO@/sub/deep.txt @RO@/in.txt
