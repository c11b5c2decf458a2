# The same through source and sh -c.
#@ args: -i @RO@ -o @RW@ --timeout 5s
#@ status: 2
#@ stderr: llmsh: source: script nested too deeply
#@ stderr: llmsh: script nested too deeply
x=$(printf '%*s' 100000 '' | tr ' ' '(')
echo "$x" > deep.sh
source deep.sh
sh -c "$x"
