# The GNU options of sessions 13 and 14 that reach files by routes of
# their own (a list of names, a reference file, a base directory, a
# directory to start in): a host file outside the grants reads as absent
# through each, exactly as a name that exists nowhere (T-PATH-4).
#@ status: 0
#@ stdout: compared 33, differences 0
#@ no-stdout: differs
# Each path's lists are written once (a name a line, and NUL-ended):
# /tmp/ls* for the secret, /tmp/lm* for the missing name, which a
# command's /tmp/list becomes; a message that names its list reads as L.
check() {
	p=$1 l=$2
	c=${cmd//\/tmp\/list//tmp/$l}
	(eval "${c//P/\$p}") 2>&1
	echo "status $?"
}
n=0 diffs=0
s=@SECRET@ m=@OUT@/nosuch
printf '%s\n' "$s" > /tmp/ls; printf '%s\0' "$s" > /tmp/ls0
printf '%s\n' "$m" > /tmp/lm; printf '%s\0' "$m" > /tmp/lm0
for cmd in 'cp --parents P /tmp/cpp' 'cp -u P /tmp/cpu' 'cp -b P /tmp/cpb' \
	'cp --backup=numbered P work.txt' 'du --files0-from=/tmp/list0' 'du -X P .' \
	'tar cf /tmp/t1.tar -T /tmp/list' 'tar rf /tmp/t2.tar P' 'tar uf /tmp/t3.tar P' \
	'tar -A -f /tmp/t4.tar P' 'tar --remove-files -cf /tmp/t5.tar P' 'env -C P pwd' \
	'env -S "cat P"' 'diff --from-file=P work.txt' 'diff --to-file=P work.txt' \
	'diff -N . P' 'file -f /tmp/list' 'file -z P' 'file -L P' 'tree --fromfile /tmp/list' \
	'tree --gitignore P' 'tree -l P' 'split P /tmp/sp' 'touch -r P /tmp/tr' \
	'realpath --relative-base=P .' 'realpath --relative-to=P .' 'ls -L P' \
	'ls -l --author P' 'ls -Z P' 'ls -i P' 'wc --files0-from=/tmp/list0' \
	'nohup cat P' 'stdbuf -o0 nice cat P'; do
	a=$(check "$s" ls); a=${a//"$s"/P}; a=${a//\/tmp\/ls/L}
	b=$(check "$m" lm); b=${b//"$m"/P}; b=${b//\/tmp\/lm/L}
	n=$((n+1))
	if [ "$a" != "$b" ]; then
		echo "differs: $cmd: [$a] [$b]"
		diffs=$((diffs+1))
	fi
done
echo "compared $n, differences $diffs"
