# Setuid, setgid and sticky bits on files made in the -o tree, by every
# route that sets a mode: chmod (octal and symbolic), install -m,
# mkdir -m, tar x -p of a member whose header says 6755 (tar --mode),
# unzip of a member whose external attributes say 0106755 (a zip built
# byte by byte), cp --preserve=all of such a file. A host program run
# later by another user must never find a set-id file made by a script
# (llmsh may run as root). vfsd's chmod sets permission bits only.
#@ status: 0
#@ stdout: special=0
#@ stdout: tar-header=-rwsr-sr-x
#@ no-stderr: cp:
#@ stderr: changing permissions of 'a': Operation not permitted
le16() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))"; }
le32() { le16 $(($1 & 65535)); le16 $(($1 >> 16 & 65535)); }
mkdir s && cd s
printf 'x' > a; chmod 4755 a
printf 'x' > b; chmod u+s,g+s,+t b
install -m 6755 a c
mkdir -m 7777 d
mkdir e; chmod g+s e
tar --mode=6755 -cf m.tar a
echo "tar-header=$(tar tvf m.tar | cut -d' ' -f1)"
mkdir t && tar xpf m.tar -C t
# One stored member "z" holding "x" (crc32 8cdc1683), made by Unix
# (0x031e), external attributes 0106755 << 16.
{ le32 0x04034b50; le16 10; le16 0; le16 0; le16 0; le16 0x21; le32 0x8cdc1683
  le32 1; le32 1; le16 1; le16 0; printf zx
  le32 0x02014b50; le16 0x031e; le16 10; le16 0; le16 0; le16 0; le16 0x21
  le32 0x8cdc1683; le32 1; le32 1; le16 1; le16 0; le16 0; le16 0; le16 0
  le32 $((0106755 << 16)); le32 0; printf z
  le32 0x06054b50; le16 0; le16 0; le16 1; le16 1; le32 47; le32 32; le16 0; } > m.zip
mkdir u && unzip -q m.zip -d u
mkdir p && cp -r --preserve=all t u p
echo "special=$(find . -perm /7000 | wc -l)"
find . -perm /7000
ls -l u/z p/u/z | cut -d" " -f1
