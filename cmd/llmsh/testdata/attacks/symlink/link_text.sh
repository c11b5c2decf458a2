# The text of a link that points out of the grants may be printed
# (docs/security.md T-LINK-3); nothing may be read through it, not by
# resolving it, nor from an archive that stores it as a link.
#@ status: any
readlink link-abs link-rel proc-link
ls -l link-abs link-rel
stat -c %N link-rel proc-link
find . -maxdepth 1 -name '*link*' -printf '%p %l\n'
tar cf l.tar link-abs link-rel proc-link dirlink
mkdir -p x && tar xf l.tar -C x
cat x/link-abs x/link-rel x/proc-link x/dirlink/secret
cat "$(readlink -f link-abs)" "$(realpath -m link-rel)" "$(readlink -m proc-link)"
cat "$(readlink -e dirlink)/secret"
