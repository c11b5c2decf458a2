# A process substitution that a descriptor keeps open past the script
# (session 20, red team): `exec {fd}< <(yes)` leaves yes blocked writing
# to a pipe nobody reads, `exec 3> >(cat)` cat blocked reading one nobody
# writes; neither sees its hung-up context, so the end of a library or
# serve Run waited three times the shell's 1 s grace for them (3 s for
# this script; with a 2 s limit, `echo second` in the same session was
# reported as timed out, 124), and again at the end of every later Run.
# `coproc cat` did the same (2 s a Run: cat blocked reading the pipe whose
# writer is the session's descriptor), and `coproc yes` blocked writing
# (the shell's terminal test had put the pipe in blocking mode). The end
# of a session's Run now closes the lists' sides of their pipes, a
# hung-up coprocess its own. shell's TestEndJobsHeldDescriptors holds
# the mechanism: with a minute's grace there, a wait that runs it out
# fails whatever the load. Here the bound only ends a run that never
# answers (2 s failed once under load 20-30, for a run of 0.03 s).
#@ answer-within: 10s
#@ stdout: 10 y|x|c|y|done
exec {fd}< <(yes)
printf '%s %s|' "$fd" "$(head -c 1 <&$fd)"
exec 3> >(cat > /dev/null)
echo hi >&3
printf 'x|'
coproc cat
printf 'c|'
coproc Y { yes; }
printf '%s|' "$(head -c 1 <&${Y[0]})"
echo done
