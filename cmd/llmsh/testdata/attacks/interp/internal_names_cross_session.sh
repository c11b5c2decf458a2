# Another session's text through llmsh's internal names (issue 18, B5): the
# rewrite tables were process-global, keyed by small ids, so under serve or
# the library `: < $'\x01split '$i && declare -p _llmsh_split` or
# `cat < $'\x01arith 1'` read another session's literal text. They are the
# session's now, keyed by the rewritten nodes, and those names in a script's
# own redirection are plain files. Here a function keeps text in rewritten
# nodes (split words, arithmetic, descriptor redirections) and each small id is
# probed; a nested shell (which shares the session) probes too.
# Each name a redirection opens is a round trip to vfsd: the ids are the
# first 64, and the split name is opened once (cat, then declare -p if
# it opened): 384 opens, not 1608. In the library run, beside other
# tests' CPU-bound goroutines, a round trip costs tens of ms (the
# answer's reader and the shell each wait for a P the others hold until
# preempted): 1608 opens were 67 s of its 90 s at load 20-25.
#@ status: 0
#@ stdout: probe done
#@ no-stdout: XS_SECRET
#@ stdout: command not found
IFS=:
n=1
f() { v="a:XS_SECRET_SPLIT"; echo $v; echo $(( $n + XS_SECRET_ARITH )); (( $n + XS_SECRET_CMD )); exec 3>/dev/null; echo XS_SECRET_FD >&3; }
f > /dev/null 2>&1
unset IFS
probe='
for i in $(seq 0 63); do
  cat < $'"'"'\x01split '"'"'$i && declare -p _llmsh_split
  cat < $'"'"'\x01arith '"'"'$i
  : 3< $'"'"'\x01fd '"'"'$i'"'"' 0 0'"'"' && cat <&3
  $'"'"'\x00arithcmd'"'"' $i; $'"'"'\x01arithcmd'"'"' $i
  x=$'"'"'\x01'"'"'; "${x}let" $i; "${x}quote" sh set $i
done 2>&1
'
eval "$probe"
sh -c "$probe"
echo probe done
