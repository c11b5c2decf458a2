# One expansion that builds gigabytes in a single call: the value
# bound is checked before the text is built, so each stops at once with
# "value too large" (it took 3-10 GB and up to 46 s, past the memory
# guard, which cannot interrupt one allocation; echo of it crashed llmsh).
# Its 2.8 s of CPU took over 60 s of wall at load 40 (session 23): a
# limit that load is far from, and not what it tests. Since session 30
# the value bound is an eighth of the memory limit: under 256M it is
# 32 MiB, and the same checks cost a tenth (values of 2 MB, not 16 MB).
#@ args: -i @RO@ -o @RW@ --max-memory 256M --timeout 100s
#@ status: 0
#@ stderr: limit exceeded: value too large
#@ no-stderr: memory limit exceeded
#@ stdout: replace all: 125
#@ stdout: replace each: 125
#@ stdout: anchored: 125
#@ stdout: join star: 125
#@ stdout: join at: 125
#@ stdout: positional: 125
#@ stdout: assoc: 125
#@ stdout: heredoc: 125
#@ stdout: parts: 125
#@ stdout: printf -v: 125
#@ stdout: elements: 125
#@ stdout: quoted elements: 125
#@ stdout: echo streams: 300000150
#@ stdout: done
s=$(printf '%*s' 100000 '')
big=$(printf '%*s' 2000000 '')
export s big
sh -c 'y=${s// /$s}; echo notreached'; echo "replace all: $?"
sh -c 'y=${s//?/$s}; echo notreached'; echo "replace each: $?"
sh -c 'a=(); for i in {1..30}; do a+=("$big"); done; y=${big/#/$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big}; echo notreached'; echo "anchored: $?"
sh -c 'a=(); for i in {1..30}; do a+=("$big"); done; y="${a[*]}"; echo notreached'; echo "join star: $?"
sh -c 'a=(); for i in {1..30}; do a+=("$big"); done; y=${a[@]}; echo notreached'; echo "join at: $?"
sh -c 'set --; for i in {1..30}; do set -- "$@" "$big"; done; y="$*"; echo notreached'; echo "positional: $?"
sh -c 'declare -A m; for i in {1..30}; do m[$i]=$big; done; y="${m[*]}"; echo notreached'; echo "assoc: $?"
sh -c 'a=(); for i in {1..30}; do a+=("$big"); done; cat <<END
${a[*]}
END
echo notreached'; echo "heredoc: $?"
sh -c 'y="$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big$big"; echo notreached'; echo "parts: $?"
sh -c 'a=(); for i in {1..30}; do a+=("$big"); done; printf -v y %s "${a[@]}"; echo notreached'; echo "printf -v: $?"
sh -c 'a=(); for i in {1..30}; do a+=("$big"); done; b=("${a[@]/#/x}"); echo notreached'; echo "elements: $?"
sh -c 'a=(); for i in {1..30}; do a+=("$big"); done; b=("${a[@]@Q}"); echo notreached'; echo "quoted elements: $?"
# echo of 300 MB, past the memory guard (256 MiB) were it built, streams.
a=(); for i in {1..150}; do a+=("$big"); done
echo "echo streams: $(echo "${a[@]}" | wc -c)"
echo done
