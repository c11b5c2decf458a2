# tar can neither archive nor extract outside the grants.
#@ status: 2
#@ stderr: No such file or directory
tar cf a.tar @OUT@
tar tvf a.tar
tar cf - ../out | tar tf -
