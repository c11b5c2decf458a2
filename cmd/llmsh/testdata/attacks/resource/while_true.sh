#@ args: -i @RO@ -o @RW@ --timeout 1s
#@ status: 124
#@ stderr: llmsh: timed out after 1s
while true; do :; done
