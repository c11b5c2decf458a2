# Resolving links may name where they point; it never reads through them.
#@ status: any
readlink -f dirlink/secret
realpath rootlink/etc/passwd
cat "$(realpath link-abs)"
cat "$(readlink link-rel)"
