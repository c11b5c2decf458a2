# A deeply nested string given to eval: the parser must not recurse the
# Go stack to death nor run past the limit.
#@ args: -i @RO@ -o @RW@ --timeout 5s
#@ status: 2
#@ stderr: llmsh: eval: script nested too deeply
x=$(printf '%*s' 100000 '' | tr ' ' '{')
eval "$x"
