# An archive whose members climb out: tar strips and refuses them.
#@ status: any
mkdir -p t/x && echo pwn > t/x/f
tar cf a.tar t
tar xf a.tar -C ..
tar xf a.tar -C @OUT@
tar xf a.tar --strip-components=0 -C dirlink
