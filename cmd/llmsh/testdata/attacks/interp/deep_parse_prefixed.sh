# Issue 18 D1: the nesting bound on eval, source and trap text applied only
# when the first word was eval, source or trap; `command eval`, `builtin
# eval`, `command source` and `command trap` ended in Go's unrecoverable
# "fatal error: stack overflow" (in serve: every session with it).
#@ status: any
#@ stderr: nested too deeply
deep=$(printf '%5000s' '' | tr ' ' '(')
command eval "$deep"; echo "st=$?"
builtin eval "$deep"
command builtin command eval "$deep"
printf '%s\n' "$deep" > deep.sh
command source ./deep.sh
builtin . ./deep.sh
command trap "$deep" EXIT
e=eval; command $e "$deep"
braces=$(printf '%5000s' '' | tr ' ' '{')
builtin eval "$braces"
subst=$(printf '%3000s' '' | tr ' ' '$' | sed 's/\$/$(/g')
command eval "echo $subst"
