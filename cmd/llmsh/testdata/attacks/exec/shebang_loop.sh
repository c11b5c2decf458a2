# A script whose #! line runs the script again (#!/usr/bin/env alone runs
# env ./s.sh, which runs ./s.sh): bash execs for ever in constant memory,
# llmsh ran each round in-process one level deeper, past the depth check
# of the interpreter's commands, until the time limit (125 MB of stack
# in 10 s, growing). Now the depth limit stops it, as a recursion.
#@ heavy
#@ timeout: 60s
#@ status: 125
#@ stderr: maximum call depth exceeded
printf '#!/usr/bin/env\necho body\n' > loop.sh
chmod +x loop.sh
./loop.sh
echo not reached
