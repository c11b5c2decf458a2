# The host's physical memory (session 29, red team): sort's -S N% is N% of
# the machine's memory, which llmsh took from sysinfo(2), and sort says
# "too large" once that passes 2^63-1 bytes, so a bisection of N told the
# memory to the byte (25276502016 on the machine of the session). llmsh's
# commands see a machine of 4 GiB, as they see one CPU (nproc) and uname's
# names: the threshold is 100 * (2^63-1) / 2^32, whatever the host has.
#@ stdout: threshold 214748364800%
#@ stdout: nproc 1
lo=1 hi=100000000000000
while (( hi - lo > 1 )); do
	m=$(( (lo + hi) / 2 ))
	if sort -S "$m%" < /dev/null 2> /dev/null; then lo=$m; else hi=$m; fi
done
echo "threshold $hi%"
echo "nproc $(nproc)"
