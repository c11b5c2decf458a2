# One value bounded by the run's memory limit (session 30; a leftover of
# session 29): a value could grow to 256 MiB whatever --max-memory said,
# and the allocations of one (a buffer doubling as it fills, the string
# made of it) come between two looks of the memory guard, so a run under
# --max-memory 128M reached 519 MB of RSS. The bound on one value is now
# an eighth of the memory limit (4 MiB here, 256 MiB under the default
# 2 GiB): command substitutions, expansions, printf -v, read and mapfile
# stop the run (each in a nested shell here, whose end the script sees;
# since session 31 an append, x+=$y, too, which was not checked: a loop
# of them grew one string to the memory limit),
# and awk's and jq's strings fail as they did at 256 MiB.
#@ args: -i @RO@ -o @RW@ --max-memory 32M --timeout 20s
#@ stdout: subst 125
#@ stdout: double 125
#@ stdout: printf 125
#@ stdout: append 125
#@ stdout: read 125
#@ stdout: mapfile 125
#@ stdout: cat 125
#@ stdout: awk 2
#@ stdout: jq 5
#@ stdout: small 3500000 3500000
#@ stderr: value too large (more than 4194304 bytes)
#@ stderr: awk: fatal: string too long (more than 4194304 bytes)
#@ stderr: jq: error (at <unknown>): string too long (more than 4194304 bytes)
#@ no-stderr: memory limit exceeded
#@ no-stderr: No space left on device
bash -c 'x=$(yes)' 2>/dev/null; echo subst $?
bash -c 'x=a; while :; do x=$x$x; done'; echo double $?
bash -c 'printf -v x %04500000d 0' 2>/dev/null; echo printf $?
bash -c 'x=$(printf %03500000d 0); while :; do z+=$x; done'; echo append $?
head -c 4500000 /dev/zero | tr '\0' y > line
bash -c 'read -r x' < line 2>/dev/null; echo read $?
bash -c 'mapfile x' < line 2>/dev/null; echo mapfile $?
bash -c 'x=$(cat line)'; echo cat $?
rm line
awk 'BEGIN { s = "a"; while (1) s = s s }'; echo awk $?
jq -n 'reduce range(40) as $i ("ab"; . + .)'; echo jq $?
x=$(printf %03500000d 0); printf -v y %s "$x"; echo small ${#x} ${#y}
