# Many variables and functions overstaying the time limit where no
# process ends with the run (session 26, red team). With 300,000
# variables, every statement of a session copied all of them into the
# interpreter's Vars map at its end (0.17 s of CPU each, looked at by no
# context: five `:` took 0.87 s), and set, declare -p, export -p,
# compgen -v, ${!v*} and declare -f (100,000 functions: 1.5 s of CPU)
# listed them all before the run's context was looked at again. The copy
# is gone (0.3 ms), and the listings look at the context every 4096
# names. Sized so the setup ends well before the limit under the race
# detector (100,000 variables, 20,000 functions: a listing of either
# still takes longer than the limit allows to overshoot). Not heavy
# (session 30): a heavy script runs through the CLI only, where a
# listing that did not stop is ended as stuck with the same 124, so its
# answer-within was never checked; it now runs through the library
# (limitEnded), whose answer tells a listing that does not end. One that
# only overshoots passes either way: with compStopped always false the
# library run still answered within its 30 s (each listing here takes
# well under a second), and no other test checks those stops.
#@ timeout: 3s
#@ answer-within: 30s
#@ status: 124
#@ stderr: timed out after 3s
#@ no-stdout: not reached
eval "$(seq -f 'v%g=1' 100000)"
eval "$(seq -f 'f%g(){ :; }' 20000)"
while :; do
	set > /dev/null
	declare -f > /dev/null
	compgen -v > /dev/null
	x="${!v*}"
	:
done
echo not reached
