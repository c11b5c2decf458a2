# Removing, moving, touching, creating directories outside: refused.
#@ status: any
#@ stderr: Permission denied
rm @SECRET@
rm -rf @OUT@
rm -rf ../out
mv @SECRET@ stolen
mv work.txt @OUT@/moved
touch @SECRET@
touch -d 2000-01-01 @OUT@/other.txt
mkdir @OUT@/d
mkdir -p @OUT@/a/b
rmdir @OUT@/bin
ln -s @SECRET@ l2
