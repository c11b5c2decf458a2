# Host system programs by absolute path. /bin/sh, /usr/bin/env and
# /usr/bin/id name llmsh's own commands at their virtual paths (llmsh's
# sh writes a virtual file, its id is the virtual user's): no host
# program runs. A program that only the host has is not found.
#@ status: 127
#@ stdout: uid=1000(llmsh)
#@ stdout: PATH=/usr/local/bin:/usr/bin:/bin
#@ stderr: /usr/bin/gcc: command not found
#@ stderr: discarded virtual files: @ROOT@/host-program-ran
/bin/sh -c 'echo ran > @ROOT@/host-program-ran'
/usr/bin/env
/usr/bin/id
/usr/bin/gcc --version
