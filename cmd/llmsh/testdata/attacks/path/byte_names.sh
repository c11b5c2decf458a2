# File names that are not UTF-8 travel to vfsd as their bytes
# (byte_names, docs/protocol.md): none of them, and no name that looks
# like the wire's escapes, spells a '/', a '..' or another file. An
# overlong '/' ($'\xc0\xaf') or '.' ($'\xc0\xae') is two bytes of a name,
# never a separator; a name holding the text of an escape is that text.
#@ status: 0
#@ stdout: overlong slash: absent
#@ stdout: overlong dots: absent
#@ stdout: byte dir up: No such file or directory
#@ stdout: escape text: 4 names
#@ stdout: lookalike: absent
#@ stdout: glob out: none
#@ stdout: find out: none
#@ stdout: tar members: 5
#@ stdout: virtual: \376 gone
#@ no-stdout: differs
o=@OUT@ rel=../out
probe() { # a read that must find nothing
	label=$1; shift
	if cat "$@" >/dev/null 2>&1; then echo "$label: READ"; else echo "$label: absent"; fi
}
probe 'overlong slash' $'..\xc0\xafout\xc0\xafsecret' "$o"$'\xc0\xafsecret' $'\xc0\xaf'"${o#/}/secret"
probe 'overlong dots' $'\xc0\xae\xc0\xae/out/secret' $'\xc0\xae./out/secret' $'.\xc0\xae/out/secret'
mkdir $'d\xfe' && cd $'d\xfe' || exit 1
cat ../$rel/secret 2>&1 | sed 's/^.*: //; s/^/byte dir up: /'
cd ..
# Names that hold the text of the wire's escape: themselves, and distinct.
touch 'a\x00ff' 'a\u0000ff' 'a00ff' $'a\xff'
echo "escape text: $(ls | grep -c '^a') names"
probe lookalike 'a\u0000ff/../'"$rel/secret" $'a\xff/..'"/$rel/secret"
ls -b | grep '^a' | tr '\n' ' '; echo
# Globs and walks outside the grants see nothing, whatever the bytes.
set -- "$o"/$'\xff'* "$o"/*$'\xc0'* "$o"/s?cret$'\xff'
[ -e "$1" ] || [ -e "$2" ] || [ -e "$3" ] || echo "glob out: none"
n=$(find "$o" -name $'*\xff*' 2>/dev/null | wc -l)
[ "$n" = 0 ] && echo "find out: none"
# An archive of byte names lists and extracts them as bytes, inside.
tar cf /tmp/t.tar $'d\xfe' $'a\xff' 'a\x00ff' 'a\u0000ff' a00ff
echo "tar members: $(tar tf /tmp/t.tar | wc -l)"
mkdir x && tar xf /tmp/t.tar -C x && [ -d x/$'d\xfe' ] && [ -f x/$'a\xff' ] || echo "tar x differs"
# Virtual names are bytes too.
touch /tmp/$'\xfe' && ls -b /tmp | grep -qx '\\376' || echo "virtual differs"
rm /tmp/$'\xfe' && [ ! -e /tmp/$'\xfe' ] && echo 'virtual: \376 gone'
