# Writing through links planted in the -o tree that lead out.
#@ status: any
echo pwn > link-abs
echo pwn >> link-rel
echo pwn > dirlink/new
echo pwn >> dirlink/secret
sed -i s/M/X/ link-abs
touch dirlink/t
cp work.txt dirlink/
