# tar can neither archive nor extract outside the grants.
#@ status: 2
#@ stderr: No such file or directory
# An archive of nothing lists as empty (status 0, as GNU tar); pipefail
# keeps the refused tar c's status.
set -o pipefail
tar cf a.tar @OUT@
tar tvf a.tar
tar cf - ../out | tar tf -
