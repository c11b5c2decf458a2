# An empty or truncated umask mode (session 17, red team): `umask ''`
# indexed the mode's first byte, a Go panic that ended the process (the
# CLI, a serve worker, a library host). bash: "`\0': invalid symbolic
# mode operator", status 1; the shell goes on.
#@ status: 0
#@ stderr: invalid symbolic mode operator
#@ stdout: after 1 1 1 1
#@ stdout: unset 0 gone
#@ stdout: unset-v 1
#@ stdout: csplit 1
#@ stdout: fc 0
#@ stderr: invalid pattern
umask ''; a=$?
umask -S ''; b=$?
umask 'u=rw,'; c=$?
umask 'u,g=r'; d=$?
echo after $a $b $c $d
umask
# `unset ''` (unset "$v" of an empty v) looked up a variable with no
# name, a Go panic too; bash skips it with status 0 (-v: not a valid
# identifier, 1).
x=1; unset '' x; echo "unset $? ${x-gone}"
unset -f ''; unset -n ''; unset -v ''; echo "unset-v $?"
# csplit's empty pattern: its first byte (llmsh: csplit: internal error).
printf 'a\nb\n' > cs.in; csplit cs.in ''; echo "csplit $?"
# fc -l with the history on and nothing in it yet indexed the empty list.
set -o history; fc -l; echo "fc $?"
