# Tools that follow links while walking the tree.
#@ status: any
find -L . -name secret -exec cat {} \;
grep -R MARK .
du -L .
cp -r dirlink copy
cat copy/secret
tar chf a.tar dirlink
tar tf a.tar
ls -lL
wc -c *
