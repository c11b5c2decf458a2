# awk's system(), output pipes and input pipes run llmsh's own commands
# (sh -c): a host program, by path or by PATH lookup, is not found.
#@ status: any
#@ stderr: @CANARY@: command not found
#@ stderr: nosuchcmd: command not found
#@ stderr: unexpected character '&'
#@ stdout: r=127
#@ stdout: c=127
awk 'BEGIN { r = system("@CANARY@"); print "r=" r }'
awk 'BEGIN { print "x" | "@CANARY@"; print "c=" close("@CANARY@") }'
awk 'BEGIN { "@CANARY@" | getline x }'
awk 'BEGIN { system("nosuchcmd; env @CANARY@; exec @CANARY@") }'
awk 'BEGIN { "echo @CANARY@" | getline p; system(p); print "y" | p }'
awk 'BEGIN { print "x" |& "@CANARY@" }'
