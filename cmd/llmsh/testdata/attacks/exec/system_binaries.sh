# Host system programs by absolute path.
#@ status: 127
#@ stderr: /bin/sh: command not found
/bin/sh -c 'echo ran > @ROOT@/host-program-ran'
/usr/bin/env
/usr/bin/id
