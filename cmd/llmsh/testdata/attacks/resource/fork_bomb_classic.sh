#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 30s
#@ status: any
# The classic bomb: its first job returns at once and the script ends;
# the end of the script stops every job it left (and theirs), so the
# bomb dies with the run and leaves nothing behind (status 0; 125 if the
# limit fires first on a loaded machine).
:(){ :|:& };:
