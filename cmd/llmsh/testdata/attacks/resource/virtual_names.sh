# Virtual files with huge names (issue 18, D4: 600 empty files with 500 KB
# names held vfsd at 484 MB, and the exit listing then came back empty,
# hiding /tmp/important). Names are held to PATH_MAX/NAME_MAX, have a
# budget of their own (16 MiB) and a count limit; the exit listing names
# the shortest and counts the rest.
#@ heavy
#@ args: -i @RO@ -o @RW@ --timeout 60s
#@ status: 0
#@ stdout: huge refused 8
#@ stdout: component 256: 1
#@ stdout: component 255: 0
#@ stdout: path 4096: 1
#@ stdout: budget full: 1
#@ stdout: new chain: 1
#@ stdout: freed: 0
#@ stdout: deep refused
#@ stdout: renamed: 1
#@ stderr: File name too long
#@ stderr: No space left on device
#@ stderr: discarded virtual files:
#@ stderr:  /tmp/important
#@ stderr: more not named)
huge=$(printf %0500000d 0)
n=0
for i in $(seq 8); do
	: > "/tmp/$huge$i" 2>/dev/null || n=$((n+1))
	echo x >> "/tmp/x/$huge/$i" 2>/dev/null
	mkdir -p "/tmp/$huge/$i" 2>/dev/null
done
echo huge refused $n
: > /tmp/$(printf %0256d 0); echo component 256: $?
: > /tmp/$(printf %0255d 0); echo component 255: $?
long=$(printf "%0250d/" $(seq 17))x
: > "/v$long" 2>/dev/null; echo path 4096: $?
cat "/v$long" 2>/dev/null; ls "/v$long" 2>/dev/null; stat "/v$long" 2>/dev/null
touch "$long" 2>/dev/null
echo important > /tmp/important
# Fill the name budget (16 MiB) with names of 4000 bytes in one chain of
# 15 directories of 250 bytes: about 4100 files.
d=/tmp/$(printf "%0250d/" $(seq 15))
mkdir -p "$d"
i=0
while printf -v n %0230d $i; : > "$d$n"; do i=$((i+1)); [ $i -gt 5000 ] && break; done
echo budget full: $((i > 3000 && i < 5000))
# Chains of directories of their own cost their names too.
mkdir -p "/c/$(printf "%0250d/" $(seq 14))" 2>/dev/null; echo new chain: $?
rm "$d$(printf %0230d 0)"
: > "$d$(printf %0230d 0)"; echo freed: $?
mkdir -p "/deep/$(printf "%0250d/" $(seq 15))" 2>/dev/null || echo deep refused
mv /tmp/important "$d/important" 2>/dev/null; echo renamed: $?
cat /tmp/important
