#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 90s
#@ status: 125
#@ stderr: a fork bomb?
# Each job waits for its children, so the bomb keeps the script alive
# until the goroutine limit stops it. (The classic :(){ :|:& };: whose
# jobs return at once ends with its script instead: fork_bomb_classic.)
:(){ :|:& wait; };:
