# The same as a trap string (interp parses it when the trap fires).
#@ status: 2
#@ stderr: llmsh: trap: script nested too deeply
x=$(printf '%*s' 100000 '' | tr ' ' '(')
trap "$x" EXIT
