#!/usr/bin/env bash
# bench/difftext.sh [-v] [-k DIR] [CASES_FILE] — a differential audit of the
# text-processing builtins (issue 4) against the GNU tools of this machine.
#
# Each line of CASES_FILE (default bench/difftext.cases; blank lines and lines
# starting with # are skipped) is a one-line shell command. It runs twice, each
# time in a fresh copy of a directory of sample inputs (empty file, no final
# newline, CRLF, bytes that are not UTF-8, NUL bytes, a 200,000-byte line, ...):
#   GNU:   env -i PATH=/usr/bin:/bin LC_ALL=C timeout 20 bash -c CMD </dev/null
#   llmsh: llmsh -q --timeout 20s -o CASEDIR -c CMD </dev/null
# and stdout, stderr and the exit status are compared byte for byte (stderr
# lines that start with bash's "bash: line 1: " are compared with llmsh's
# "llmsh: " prefix instead: that is the shell's name, not the tool's).
#
# It prints a table per command (the first word of the case) with the cases
# and how many agree, then every differing case (with -v: the two outputs).
# -k DIR keeps the work directory there; LLMSH=PATH uses that llmsh binary
# instead of building this checkout's. Exit status 0 when every case
# agrees, 1 otherwise. Needs bash, GNU coreutils/grep/sed/diffutils, go.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
verbose=0 keep=
while [ $# -gt 0 ]; do
	case $1 in
	-v) verbose=1; shift ;;
	-k) keep=$2; shift 2 ;;
	*) break ;;
	esac
done
cases=${1:-$repo/bench/difftext.cases}
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
if [ -n "${LLMSH:-}" ]; then
	llmsh=$LLMSH # a prebuilt binary (say, of an older commit, for a before/after count)
else
	llmsh=$work/llmsh
	(cd "$repo" && go build -o "$llmsh" ./cmd/llmsh) || exit 1
fi

# The sample inputs.
in=$work/inputs
rm -rf "$in"
mkdir -p "$in/sub/deep"
(
	cd "$in" || exit 1
	: >empty
	printf 'one two three\nfour five\nsix\n\nseven eight nine ten\none two three\nlast line here\n' >a
	printf 'alpha\nbeta\ngamma' >nonl
	printf 'a b\r\nc d\r\n\r\nlast\r\n' >crlf
	printf 'caf\xc3\xa9 ok\n\xff\xfe bad\nplain \x80 byte\n\xe2\x82\xac euro\n' >bin
	printf 'a\0b\nc\0\nplain\n' >nul
	{ head -c 200000 /dev/zero | tr '\0' x; printf '\nshort\n'; } >long
	printf '10\n9\n-3\n1.5\n1e3\n0x10\n 2\nabc\n\n-0\n+4\n007\n' >nums
	printf '1K\n2M\n512\n1G\n3k\n-1K\n0.5M\n' >hum
	printf 'a1.10\na1.2\na1.9b\na1.9a\nb\na1.02\n' >ver
	printf 'Feb\njan\nDEC\nfoo\n mar\n' >months
	printf 'id,name,age\n1,bob,30\n2,alice,25\n3,carol,\n4,"d,e",7\n' >csv
	printf 'a\tb\tc\n\tx\n        y\n  \t z\nab\tcd\tef\n' >tabs
	printf 'a\nc\ne\ng\n' >s1
	printf 'b\nc\nd\nh\n' >s2
	printf 'c\nb\na\n' >unsorted
	printf '1 apple red\n2 banana yellow\n3 cherry red\n5 grape green\n' >j1
	printf '1 fruit\n3 fruit\n4 veg\n5 fruit\n' >j2
	printf 'a\na\nb\nB\nb\nc\nc\nc\nx a\ny a\n' >u
	printf 'the quick brown fox jumps over the lazy dog and keeps running far away\nshort\n' >words
	printf 'hello world\nHello World\nHELLO\nfoo bar baz\nfoobar\n' >g
	printf 'x y z\n1 2 3\n10 20 30\n' >cols
	printf 's1\0s2\0' >f0
	printf 'one\ntwo\n' >sub/f.txt
	printf 'three one\n' >sub/deep/g.txt
	printf 'one\n' >sub/h.log
	printf 'line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\nline9\nline10\nline11\nline12\n' >lines
	printf 'b 2\na 10\nb 1\na 2\nc 1\n' >kv
	printf 'hello\n' >hello
	md5sum a nonl >md5s
	sha1sum a >sha1s
	sha256sum a empty >sha256s
	sha512sum a >sha512s
	printf '0123456789abcdef' >hex16
	printf 'aGVsbG8gd29ybGQK\n' >b64
	printf '1\n2\n3\n' >l3
)

norm() { sed 's/^bash: line [0-9]*: /llmsh: /'; }

total=0 same=0
declare -A ncase npass
order=()
fails=
n=0
while IFS= read -r cmd || [ -n "$cmd" ]; do
	case $cmd in '' | '#'*) continue ;; esac
	n=$((n + 1))
	d=$work/c/$n
	rm -rf "$d"
	mkdir -p "$d"
	printf '%s\n' "$cmd" >"$d/cmd"
	for m in gnu llmsh; do
		rm -rf "$d/$m"
		cp -r "$in" "$d/$m"
		if [ $m = gnu ]; then
			(cd "$d/$m" && env -i PATH=/usr/bin:/bin LC_ALL=C timeout 20 bash -c "$cmd") >"$d/out.$m" 2>"$d/err.raw.$m" </dev/null
		else
			(cd "$d/$m" && "$llmsh" -q --timeout 20s -o "$d/$m" -c "$cmd") >"$d/out.$m" 2>"$d/err.raw.$m" </dev/null
		fi
		echo $? >"$d/rc.$m"
		norm <"$d/err.raw.$m" >"$d/err.$m"
	done
	w=${cmd%% *}
	w=${w%%|*}
	case $w in *=*) w=${cmd#* } w=${w%% *} ;; esac
	if [ -z "${ncase[$w]+x}" ]; then order+=("$w"); ncase[$w]=0 npass[$w]=0; fi
	ncase[$w]=$((ncase[$w] + 1))
	total=$((total + 1))
	what=
	cmp -s "$d/out.gnu" "$d/out.llmsh" || what+=" stdout"
	cmp -s "$d/err.gnu" "$d/err.llmsh" || what+=" stderr"
	cmp -s "$d/rc.gnu" "$d/rc.llmsh" || what+=" status($(cat "$d/rc.gnu")/$(cat "$d/rc.llmsh"))"
	if [ -z "$what" ]; then
		same=$((same + 1))
		npass[$w]=$((npass[$w] + 1))
	else
		fails+="#$n [$what ] $cmd"$'\n'
		if [ $verbose = 1 ]; then
			fails+=$(for s in out err; do
				if ! cmp -s "$d/$s.gnu" "$d/$s.llmsh"; then
					echo "  --- GNU $s"; head -c 600 "$d/$s.gnu" | cat -A | sed 's/^/  /' | head -8
					echo "  --- llmsh $s"; head -c 600 "$d/$s.llmsh" | cat -A | sed 's/^/  /' | head -8
				fi
			done)$'\n'
		fi
	fi
	rm -rf "$d/gnu" "$d/llmsh"
done <"$cases"

printf '%-10s %6s %6s\n' COMMAND cases agree
for w in "${order[@]}"; do
	printf '%-10s %6d %6d\n' "$w" "${ncase[$w]}" "${npass[$w]}"
done
printf '%-10s %6d %6d\n' TOTAL "$total" "$same"
if [ -n "$fails" ]; then
	printf '\ndiffering cases (#N [what differs: GNU/llmsh status] command):\n%s' "$fails"
	exit 1
fi
exit 0
