# The descriptor table is the interpreter's, the same in eval's code, a
# nested shell, a trap action and a function: every form opens through
# vfsd, so none reaches a file outside the grants, and no write lands
# outside the -o tree (set -C, >|, <>, {var}, moves and copies alike).
#@ status: 0
#@ stderr: No such file or directory
#@ stdout: done
eval 'exec {v}< @SECRET@; cat <&$v'
bash -c 'exec 3<> @SECRET@; cat <&3; echo x >&3' 2>/dev/null
sh -c 'exec 4< @SECRET@; read -r -u 4 l; echo "$l"'
f() { exec 5<> @SECRET@ 6>&5-; cat /dev/fd/6 <&6; }
f
trap 'exec 7< @SECRET@; cat <&7' EXIT
set -C; echo w >| @OUT@/clob 2>/dev/null; echo w > @OUT@/clob2 2>/dev/null; set +C
exec 8>&1; cat <&8 0< @SECRET@ 2>/dev/null
cat 9<<< hi /dev/fd/9 @SECRET@ 2>/dev/null
echo done
