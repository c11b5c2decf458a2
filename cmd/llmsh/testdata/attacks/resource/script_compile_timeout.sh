# A sed script or awk program of many commands overstaying the time
# limit (session 24, red team): each s/// compiles a regexp, and sed's
# parse looked at no context, so `timeout 1 sed -f sf` of 300000
# commands answered 18 s later (a library Session.Run the same); an awk
# program of 300000 rules (6.8 MB) took 13.7 s to parse whatever the
# limit. sed's parse now looks at the context every 256 commands, goawk's
# parser every 4096 tokens (ParserConfig.Stop). The sed part of this
# script took 30.9 s before, 3.6 s after, through the CLI at load 30
# (the awk part 13.7 s before); 8-9 s per surface in the suite at load 25.
# Its scripts are made by seq -f, not sed: under the race detector
# sed's 300000 substitutions took over 20 s, so the library run met its
# time limit before the parses it checks (session 25).
# Each stops at a timeout of 0.2 s, not 0.5 (session 26): through the
# static CLI each parse runs 2-4 s to its end, so 0.2 s still ends it
# midway, and each surface spins 0.9 s less.
#@ timeout: 20s
#@ answer-within: 30s
#@ stdout: sed 124|sed-e 124|awk 124|done
seq -f 's|x%g|y|' 1 300000 > sf
echo a | timeout 0.2 sed -f sf; printf 'sed %s|' $?
echo a | timeout 0.2 sed $(seq -f '-e s|x%g|y|' 1 300000); printf 'sed-e %s|' $?
seq -f '$0 ~ "x%g" { n++ }' 1 300000 > af
echo a | timeout 0.2 awk -f af; printf 'awk %s|' $?
rm sf af
echo done
