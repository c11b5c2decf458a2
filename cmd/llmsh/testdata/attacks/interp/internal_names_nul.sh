# A NUL that mapfile -d '' kept made a word that was one of llmsh's
# internal command names ("${z}status" ended in a Go stack trace, issue
# 18). As in bash, whose values are C strings, a NUL now ends a value
# wherever it comes from (mapfile -d '' with or without -t, a NUL inside a
# line, printf -v, ${x@E}), so no word holds one: "${z}status" is the
# command "status", unknown (127 and bash's message).
#@ status: 0
#@ stdout: mapfile: 0 0 0
#@ stdout: line: a
#@ stdout: printf -v: 1
#@ stdout: @E: 1
#@ stdout: word: 6 status
#@ stdout: status: 127
#@ stderr: status: command not found
#@ stdout: no NUL in any word
#@ no-stdout: SHOULD_NOT_PRINT
mapfile -d '' z < <(printf '\0')
mapfile -d '' -t zt < <(printf '\0\0')
echo "mapfile: ${#z[0]} ${#zt[0]} ${#zt[1]}"
mapfile -t l < <(printf 'a\0SHOULD_NOT_PRINT\n')
echo "line: ${l[0]}"
printf -v p 'x\0SHOULD_NOT_PRINT'
echo "printf -v: ${#p}"
e='y\0SHOULD_NOT_PRINT'
e=${e@E}
echo "@E: ${#e}"
n="${z}status"
echo "word: ${#n} $n"
"$n" 3; echo "status: $?"
all="${z}${zt[0]}${zt[1]}${l[*]}$p$e$n"
[ "$(printf '%s' "$all" | od -An -c | grep -c '\\0')" = 0 ] && echo "no NUL in any word"
