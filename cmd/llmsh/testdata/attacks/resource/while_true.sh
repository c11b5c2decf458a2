#@ args: -i @RO@ -o @RW@ --timeout 2s
#@ status: 124
#@ stderr: llmsh: timed out after 2s
while true; do :; done
