# llmsh's internal file names (\x01arith, \x01split, \x01fd, \x01rdwr,
# \x01clobber) in a script's own redirections are plain files, as in bash:
# they are served as internal only in the redirections the rewrites made.
#@ status: 0
#@ stdout: data-arith
#@ stdout: data-clobber
#@ stdout: all plain
IFS=:; x=a:b; echo $x $(( ${#x} + 1 ))
for p in arith split fd rdwr clobber; do
  f=$'\x01'"$p 1"
  echo "data-$p" > "$f"
  cat < "$f"
  set -C; echo again >| "$f" 2>/dev/null; set +C
done
: < $'\x01fd 1 0 0'; echo "st=$?"
echo all plain
