# A sed script of many commands overstaying the time limit (session 24,
# red team): each s/// compiles a regexp, and the parse looked at no
# context, so `timeout 1 sed -f sf` of 300000 commands answered 18 s
# later (this script: 30.9 s before, 3.6 s now, through the CLI at load
# 30; a library Session.Run the same). sed's parse
# now looks at the context every 256 commands.
#@ timeout: 10s
#@ answer-within: 20s
#@ stdout: sed 124|sed-e 124|done
seq 1 300000 | sed 's/.*/s|x&|y|/' > sf
echo a | timeout 0.5 sed -f sf; printf 'sed %s|' $?
echo a | timeout 0.5 sed $(sed 's/^/-e /' sf); printf 'sed-e %s|' $?
rm sf
echo done
