# awk's system(), output pipes and input pipes.
#@ status: any
#@ stderr: print | "command" is not allowed in llmsh
#@ stderr: "command" | getline is not allowed in llmsh
#@ stderr: system() is not allowed in llmsh
awk 'BEGIN { system("@CANARY@") }'
awk 'BEGIN { print "x" | "@CANARY@" }'
awk 'BEGIN { "@CANARY@" | getline x }'
awk 'BEGIN { print "x" |& "@CANARY@" }'
