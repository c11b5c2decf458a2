# A script whose #! line runs the script again (#!/usr/bin/env alone runs
# env ./s.sh, which runs ./s.sh): bash execs for ever in constant memory,
# llmsh ran each round in-process one level deeper, past the depth check
# of the interpreter's commands, until the time limit (125 MB of stack
# in 10 s, growing). Now the depth limit stops it, as a recursion.
#@ heavy
# Its 2.5 s of CPU took over 60 s of wall at load 40 (session 23): a
# limit that load is far from, and not what it tests.
#@ timeout: 100s
#@ status: 125
#@ stderr: maximum call depth exceeded
printf '#!/usr/bin/env\necho body\n' > loop.sh
chmod +x loop.sh
./loop.sh
echo not reached
