# Outside the grants a host file reads as absent, exactly as a name that
# exists nowhere: no answer of any tool tells them apart, for reads,
# stats, listings and changes alike (T-PATH-4, issue 20 item 7).
#@ status: 0
#@ stdout: compared 31, differences 0
#@ stdout: ls: cannot access 'D': No such file or directory
#@ no-stdout: differs
check() {
	p=$1
	(eval "${cmd//P/\$p}") 2>&1
	echo "status $?"
}
n=0 diffs=0
s=@SECRET@ m=@OUT@/nosuch
for cmd in 'cat P' 'head -c1 P' 'wc -c P' 'ls -l P' 'ls -d P' 'stat P' 'test -e P' \
	'test -f P' 'du P' 'find P' 'readlink -e P' 'realpath -e P' 'grep -r x P' 'cd P' \
	'rm P' 'rm -r P' 'rmdir P' 'chmod 600 P' 'mv P /tmp/m' 'cp P /tmp/c' 'sort P' \
	'od P' '. P' 'cat < P' 'ls P/x' 'cat P/x' 'mkdir P/x' 'touch -c P' 'cmp P P' \
	'tar cf /tmp/t.tar P' 'diff P /dev/null'; do
	a=$(check "$s"); a=${a//"$s"/P}
	b=$(check "$m"); b=${b//"$m"/P}
	n=$((n+1))
	if [ "$a" != "$b" ]; then
		echo "differs: $cmd: [$a] [$b]"
		diffs=$((diffs+1))
	fi
done
echo "compared $n, differences $diffs"
# A directory of the host and one that exists nowhere.
for d in @OUT@ @OUT@/nosuchdir /etc /nosuchdir; do ls "$d" 2>&1 | sed "s|$d|D|"; done | sort -u
