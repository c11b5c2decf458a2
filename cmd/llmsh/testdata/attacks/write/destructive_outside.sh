# Removing, moving, touching, creating directories outside: the host's
# files are absent (nothing to remove or move), and what is created there
# (a touched name, a moved file, directories) is virtual, named at exit.
#@ status: any
#@ stderr: rm: cannot remove '@SECRET@': No such file or directory
#@ stderr: mv: cannot stat '@SECRET@': No such file or directory
#@ stderr: rmdir: failed to remove '@OUT@/bin': No such file or directory
#@ stderr: discarded virtual files: @OUT@/a/b/ @OUT@/d/ @OUT@/moved @OUT@/other.txt @OUT@/secret
rm @SECRET@
rm -rf @OUT@
rm -rf ../out
mv @SECRET@ stolen
mkdir -p @OUT@/a/b
mv work.txt @OUT@/moved
touch @SECRET@
touch -d 2000-01-01 @OUT@/other.txt
mkdir @OUT@/d
rmdir @OUT@/bin
ln -s @SECRET@ l2
