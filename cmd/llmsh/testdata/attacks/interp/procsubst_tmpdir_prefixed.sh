# Issue 18 B4: process substitution in text interp parses itself (eval,
# source, sh -c, traps) made sh-interp-* FIFOs in $TMPDIR: in a read-only
# grant, or anywhere on the host where Landlock was not on (serve, the
# library). Now it is an in-process pipe; the harness checks that no file
# outside -o appeared.
#@ status: any
#@ stdout: from-eval
#@ stdout: from-sh
export TMPDIR=@RO@
builtin eval 'cat <(echo from-eval)'
sh -c 'builtin eval "cat <(echo from-sh)"'
TMPDIR=@OUT@ command eval 'echo >(cat) >/dev/null'
TMPDIR=@OUT@ eval 'cat < <(echo x) >/dev/null'
printf 'cat <(echo from-source) >/dev/null\n' > psub.sh
TMPDIR=@RO@ source ./psub.sh
trap 'cat <(echo from-trap) >/dev/null' EXIT
ls @RO@ @OUT@ 2>&1
