# tar can neither archive nor extract outside the grants.
#@ status: 2
#@ stderr: Permission denied
tar cf a.tar @OUT@
tar tvf a.tar
tar cf - ../out | tar tf -
