#!/usr/bin/env bash
# install-jq.sh [DIR] — install real jq 1.7.1 into DIR (default: the user's
# cache, ~/.cache/llmsh/jq-1.7.1), for builtins/jq_golden_test.go's
# differential test (TestJqDifferential) and for regen-jq.sh. Nothing outside DIR
# changes: no system package is installed or removed.
#
# Debian 12 ships jq 1.6; Debian 13 (trixie) ships jq 1.7.1. apt-get reads
# trixie's package list into DIR (its own sources list, lists and cache),
# downloads jq, libjq1, libonig5 and libc6 (trixie's libjq1 needs glibc
# 2.38 or later) and dpkg-deb unpacks them under DIR/root. DIR/jq runs that
# jq through trixie's own dynamic loader and libraries, so it works on an
# older system too.
#
# Prints the path of the jq it installed; exits non-zero with apt-get's
# message when the packages cannot be had (no Debian tools, no network).
set -euo pipefail
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/llmsh/jq-1.7.1}
if [ -x "$dir/jq" ] && "$dir/jq" --version >/dev/null 2>&1; then
	echo "$dir/jq"
	exit 0
fi
for tool in apt-get dpkg-deb; do
	if ! command -v "$tool" >/dev/null; then
		echo "install-jq.sh: $tool not found (Debian's package tools are needed)" >&2
		exit 1
	fi
done
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
if [ ! -r "$keyring" ]; then
	echo "install-jq.sh: $keyring not found" >&2
	exit 1
fi
mkdir -p "$dir"
# one install at a time (two test runs may start together); the second
# finds the first's
exec 9>"$dir/.lock"
if command -v flock >/dev/null; then
	flock 9
fi
if [ -x "$dir/jq" ] && "$dir/jq" --version >/dev/null 2>&1; then
	echo "$dir/jq"
	exit 0
fi
work=$(mktemp -d "$dir/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs" "$work/root"
echo "deb [signed-by=$keyring] http://deb.debian.org/debian trixie main" >"$work/sources.list"
opts=(
	-o "Dir::Etc::sourcelist=$work/sources.list" -o Dir::Etc::sourceparts=-
	-o "Dir::State::lists=$work/lists" -o "Dir::Cache=$work/cache"
	-o Dir::State::status=/dev/null -o APT::Sandbox::User=root
	-o Acquire::Languages=none -o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false
	-o Acquire::http::Timeout=10 -o Acquire::Retries=1
	-o Debug::NoLocking=1
)
apt-get -qq "${opts[@]}" update >&2
(cd "$work/debs" && apt-get -qq "${opts[@]}" download jq libjq1 libonig5 libc6 >&2)
for deb in "$work"/debs/*.deb; do
	dpkg-deb -x "$deb" "$work/root"
done
version=$(dpkg-deb -f "$work"/debs/jq_*.deb Version)
case $version in
1.7.1-*) ;;
*)
	echo "install-jq.sh: trixie's jq is $version, not 1.7.1" >&2
	exit 1
	;;
esac
loader=$(cd "$work/root" && find . -name 'ld-linux*.so.*' -path '*/lib/*' -print -quit)
if [ -z "$loader" ]; then
	echo "install-jq.sh: no dynamic loader in libc6" >&2
	exit 1
fi
libdir=$(dirname "$loader")
rm -rf "$dir/root"
mv "$work/root" "$dir/root"
cat >"$dir/jq" <<EOF
#!/bin/sh
# jq $version from Debian trixie, run with trixie's loader and libraries.
exec "$dir/root/${loader#./}" --argv0 jq --library-path "$dir/root/${libdir#./}" "$dir/root/usr/bin/jq" "\$@"
EOF
chmod +x "$dir/jq"
"$dir/jq" --version >/dev/null
echo "$version" >"$dir/version"
echo "$dir/jq"
