# The names llmsh's set -e and ERR trap rewrites used (issue 18): none is a
# command or a variable of the shell any more. With set -e the first one
# ends the subshell with 127 (command not found), and the script with it,
# as in bash (issue 19's example printed both lines and exited 0).
#@ status: 127
#@ stdout: trap ran
#@ stderr: $'\001noerrexit': command not found
#@ no-stdout: kept going
#@ no-stdout: after
#@ no-stdout: LEAK
for v in _llmsh_errtrap _llmsh_errline _llmsh_errtrapsrc _llmsh_errskip _llmsh_errtrapdepth _llmsh_errtrapprev _llmsh_ebst; do
	[ -n "${!v+set}" ] && echo "LEAK $v"
done
trap 'echo "trap ran"' ERR
set -e
( $'\x01noerrexit' cmdsubst 0; false; echo kept going )
echo after
