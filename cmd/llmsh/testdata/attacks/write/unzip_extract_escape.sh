# unzip of a crafted archive whose members climb out (../, an absolute
# name), go through a link planted in the -o tree that leads out
# (dirlink/), are a symlink member pointing out followed by a member
# through it, or overwrite the hard link whose other name is outside.
# The archive is built byte by byte (stored members, no compression), so
# no host tool makes it. Nothing outside changes: ../ and / are stripped
# (the files land under the working directory), the symlink member is a
# plain file holding its target, and the writes through links are refused.
#@ status: 0
#@ stdout: inside=../out/pwn1 @OUT@/pwn2
#@ stdout: esc-not-a-dir
#@ stderr: cannot create dirlink
#@ stderr: hardlink: Permission denied
le16() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))"; }
le32() { le16 $(($1 & 65535)); le16 $(($1 >> 16 & 65535)); }
# member NAME DATA CRC MODE: appends a local header to z.zip and its
# central-directory entry to cd, counting offsets in off and n.
off=0 n=0
: > z.zip; : > cd
member() {
	local name=$1 data=$2 crc=$3 mode=$4
	{ le32 0x04034b50; le16 10; le16 0; le16 0; le16 0; le16 0x21; le32 $crc
	  le32 ${#data}; le32 ${#data}; le16 ${#name}; le16 0
	  printf %s "$name$data"; } >> z.zip
	{ le32 0x02014b50; le16 0x031e; le16 10; le16 0; le16 0; le16 0; le16 0x21
	  le32 $crc; le32 ${#data}; le32 ${#data}; le16 ${#name}; le16 0; le16 0
	  le16 0; le16 0; le32 $((mode << 16)); le32 $off; printf %s "$name"; } >> cd
	off=$((off + 30 + ${#name} + ${#data})) n=$((n + 1))
}
pwn=$'pwn\n'
member ../out/pwn1 "$pwn" 0x006eae62 0100644
member @OUT@/pwn2 "$pwn" 0x006eae62 0100644
member dirlink/pwn3 "$pwn" 0x006eae62 0100644
member esc ../out 0x4c6f5f63 0120777
member esc/pwn4 "$pwn" 0x006eae62 0100644
member hardlink "$pwn" 0x006eae62 0100644
cdsize=$(wc -c < cd)
{ cat cd; le32 0x06054b50; le16 0; le16 0; le16 $n; le16 $n; le32 $cdsize; le32 $off; le16 0; } >> z.zip
mkdir x && cd x && unzip -o ../z.zip
cd ..
unzip -o z.zip dirlink/pwn3 hardlink
[ -f x/out/pwn1 ] && [ -f "x/@OUT@/pwn2" ] && echo "inside=../out/pwn1 @OUT@/pwn2"
[ -d x/esc ] || echo esc-not-a-dir
cat hardlink
