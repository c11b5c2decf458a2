#!/usr/bin/env bash
# bench/conformance.sh [-k] [-o DIR] SUITE_DIR... — runs a toybox-style
# ("tests/CMD.test") or busybox-style ("testsuite/CMD.tests") test suite
# against GNU and against llmsh, and prints, per command, the cases
# extracted, those where GNU (bash + coreutils/grep/sed) prints the expected
# output, and how many of those llmsh passes. Nothing of the suites is kept
# in this repository: SUITE_DIR is a checkout's tests/ or testsuite/
# directory (or any directory of *.test / *.tests files).
#
# Each file is sourced by bash in a scratch directory with `testing NAME
# COMMAND EXPECTED INFILE STDIN` (and testcmd, optional, toyonly, skipnot)
# replaced by a recorder: a case keeps its command, expected stdout, the
# "input" file, stdin, a copy of the scratch directory as the file's own
# commands left it, and the variables and functions the file had defined.
# Every case then runs twice from a fresh copy, as `cat STDIN | eval
# COMMAND` (the suites' own form), under bash and under llmsh (llmsh -o
# CASEDIR -i METADIR); stdout is compared byte for byte, as the suites do.
# Cases whose GNU output differs from the expected one are left out.
#
# Only the commands of issue 4 are taken (others: set CONFORM_CMDS to a
# space-separated list). -k keeps the case directory (default: a temp dir,
# removed), -o DIR puts it there. The failures are listed at the end.
# Exit status 0; the numbers are the result. Needs bash, GNU tools, go.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
keep=0 out=
while [ $# -gt 0 ]; do
	case $1 in
	-k) keep=1; shift ;;
	-o) out=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: $0 [-k] [-o DIR] SUITE_DIR..." >&2; exit 2; }
cmds=${CONFORM_CMDS:-"cat tac rev nl head tail wc grep egrep fgrep sed sort uniq cut tr paste join comm fold expand unexpand column tee seq yes expr basename dirname date base64 od md5sum sha1sum sha256sum sha512sum"}
work=${out:-$(mktemp -d)}
mkdir -p "$work/cases"
work=$(cd "$work" && pwd)
llmsh=$work/llmsh
(cd "$repo" && go build -o "$llmsh" ./cmd/llmsh) || exit 1
export LC_ALL=C.UTF-8

# extract FILE CMD DIR: records every case of FILE under DIR/NNN.
extract() {
	local file=$1 cmd=$2 dir=$3 scratch
	scratch=$(mktemp -d)
	mkdir -p "$dir"
	(
		cd "$scratch" || exit 1
		set +u +o pipefail
		__c_out=$dir __c_n=0
		C=$cmd CMDNAME=$cmd ECHO=echo FILES=/nonexistent
		__c_vars=" $(compgen -v | tr '\n' ' ') "
		__c_funcs=" $(declare -F | awk '{print $3}' | tr '\n' ' ') "
		optional() { SKIP=; }
		toyonly() { SKIPNEXT=1; "$@"; }
		skipnot() { eval "$@" 2>/dev/null || SKIPNEXT=1; }
		utf8locale() { :; }
		testcmd() {
			local x=$1
			[ -z "$x" ] && x="$CMDNAME $2"
			testing "$x" "$C $2" "$3" "$4" "$5"
		}
		testing() {
			[ $# -eq 5 ] || return 0
			local d v f
			__c_n=$((__c_n + 1))
			d=$(printf '%s/%03d' "$__c_out" "$__c_n")
			mkdir -p "$d/meta" "$d/snap"
			cp -a . "$d/snap/" 2>/dev/null
			printf '%s' "$1" >"$d/meta/name"
			printf '%s' "$2" >"$d/meta/cmd"
			echo -ne "$3" >"$d/meta/expected"
			echo -ne "$4" >"$d/snap/input"
			echo -ne "$5" >"$d/meta/stdin"
			unset SKIPNEXT
			{
				for v in $(compgen -v); do
					case $v in __c_* | BASH* | FUNCNAME | PIPESTATUS | _ | v | f | d | SHLVL | OLDPWD | PWD | RANDOM | SECONDS | LINENO | EPOCH* | SRANDOM | COLUMNS | LINES | HISTCMD) continue ;; esac
					case $__c_vars in *" $v "*) case $v in C | FILES | ECHO) ;; *) continue ;; esac ;; esac
					declare -p "$v" 2>/dev/null | sed 's/^declare -- /declare /'
				done
				for f in $(declare -F | awk '{print $3}'); do
					case $__c_funcs in *" $f "*) continue ;; esac
					case $f in optional | toyonly | skipnot | utf8locale | testing | testcmd) continue ;; esac
					declare -f "$f"
				done
			} >"$d/meta/env.sh"
			return 0
		}
		. "$file"
	) >/dev/null 2>&1
	rm -rf "$scratch"
}

# runcase CASEDIR MODE: MODE gnu or llmsh; writes meta/out.MODE.
runcase() {
	local d=$1 mode=$2 t
	t=$(mktemp -d)
	cp -a "$d/snap/." "$t/"
	if [ "$mode" = gnu ]; then
		(cd "$t" && timeout 30 bash -c '. "$1/meta/env.sh"; cat "$1/meta/stdin" | eval -- "$2"' bash "$d" "$(cat "$d/meta/cmd")") >"$d/meta/out.gnu" 2>/dev/null </dev/null
	else
		(cd "$t" && "$llmsh" -q --timeout 30s -o "$t" -i "$d/meta" -c 'cd "$1"; . "$2/meta/env.sh"; cat "$2/meta/stdin" | eval "$3"' llmsh "$t" "$d" "$(cat "$d/meta/cmd")") >"$d/meta/out.llmsh" 2>/dev/null </dev/null
	fi
	local rc=$?
	[ $rc -gt 128 ] && [ $rc -lt 255 ] && echo "exited with signal (or returned $rc)" >>"$d/meta/out.$mode"
	rm -rf "$t"
}

for suite in "$@"; do
	sname=$(basename "$(cd "$suite" && pwd)")
	case $sname in tests | testsuite) sname=$(basename "$(cd "$suite/.." && pwd)") ;; esac
	for f in "$suite"/*.test "$suite"/*.tests; do
		[ -f "$f" ] || continue
		c=$(basename "$f")
		c=${c%.tests}
		c=${c%.test}
		case " $cmds " in *" $c "*) ;; *) continue ;; esac
		extract "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$c" "$work/cases/$sname-$c"
	done
done

for d in "$work"/cases/*/[0-9]*; do
	runcase "$d" gnu
	runcase "$d" llmsh
done

printf '%-24s %9s %5s %6s %7s\n' SUITE-COMMAND extracted GNU llmsh pass%
tn=0 tg=0 tl=0
fails=
for c in "$work"/cases/*; do
	n=0 g=0 l=0
	for d in "$c"/[0-9]*; do
		n=$((n + 1))
		cmp -s "$d/meta/expected" "$d/meta/out.gnu" || continue
		g=$((g + 1))
		if cmp -s "$d/meta/expected" "$d/meta/out.llmsh"; then
			l=$((l + 1))
		else
			fails+="  ${d#"$work"/cases/} $(cat "$d/meta/name"): $(head -c 90 "$d/meta/cmd" | tr '\n' ' ')"$'\n'
		fi
	done
	pct=$(awk -v l=$l -v g=$g 'BEGIN { printf "%.1f", g ? 100 * l / g : 0 }')
	printf '%-24s %9d %5d %6d %7s\n' "${c#"$work"/cases/}" $n $g $l "$pct"
	tn=$((tn + n)) tg=$((tg + g)) tl=$((tl + l))
done
printf '%-24s %9d %5d %6d %7s\n' TOTAL $tn $tg $tl "$(awk -v l=$tl -v g=$tg 'BEGIN { printf "%.1f", g ? 100 * l / g : 0 }')"
[ -n "$fails" ] && printf 'llmsh failures (GNU agrees with the suite):\n%s' "$fails"
if [ $keep = 0 ] && [ -z "$out" ]; then
	rm -rf "$work"
else
	echo "cases kept in $work/cases"
fi
exit 0
