# A NUL that mapfile -d '' keeps made a word that is one of llmsh's internal
# command names ("${z}status" ended in a Go stack trace, issue 18). Every
# internal command name made of data, however it is run, is an unknown
# command: 127 and bash's message, never a panic or the command itself.
#@ status: 0
#@ stdout: every status 127
#@ no-stdout: a status not 127
#@ stdout: every builtin status 1
#@ no-stdout: a builtin status not 1
#@ stdout: $'\000status': command not found
#@ no-stdout: SHOULD_NOT_PRINT
mapfile -d '' z < <(printf '\0')
r=() b=()
for name in status printf echo cat let quote qall anchor count declfunc declist fdalloc fname ef loopst psrec psset ps1 psub psubdone arithcmd errbody subexit notfound; do
  n="${z}$name"
  "$n" 3; r+=($?)
  "$n" '%s' SHOULD_NOT_PRINT; r+=($?)
  command "$n" 3; r+=($?)
  command command "$n" 3; r+=($?)
  builtin "$n" 3; b+=($?)
  (exec "$n" 3); r+=($?)
  eval '"$n" 3'; r+=($?)
  echo SHOULD_NOT_PRINT | xargs "$n"; r+=($?)
  env "$n" SHOULD_NOT_PRINT; r+=($?)
  sh -c '"$@"' sh "$n" SHOULD_NOT_PRINT; r+=($?)
done > msgs 2>&1
sort -u msgs
for st in "${r[@]}"; do [ "$st" = 127 ] || echo "a status not 127: $st"; done
for st in "${b[@]}"; do [ "$st" = 1 ] || echo "a builtin status not 1: $st"; done
[ "${#r[@]}" = 216 ] && echo "every status 127"
[ "${#b[@]}" = 24 ] && echo "every builtin status 1"
