#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 90s
#@ status: 125
#@ stderr: llmsh: limit exceeded:
# Each job waits for its children, so the bomb keeps the script alive
# until a limit stops it: the goroutine limit ("more than 20000 processes at once:
# jobs, pipeline elements (a fork bomb?)") or the call depth of its deepest chain of jobs
# ("maximum call depth exceeded"), whichever the scheduling reaches first
# (both on one machine, from run to run; shell's TestForkBombStops holds
# the goroutine limit itself). (The classic :(){ :|:& };: whose
# jobs return at once ends with its script instead: fork_bomb_classic.)
:(){ :|:& wait; };:
