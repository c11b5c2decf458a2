# Process substitution hidden from the pre-run check by eval and source.
#@ status: 2
#@ stderr: llmsh: eval: process substitution is not supported
#@ stderr: llmsh: source: process substitution is not supported
#@ no-stdout: x
eval 'cat <(echo x)'
echo 'cat <(echo x)' > s.sh
source s.sh
eval '@CANARY@ > >(cat)'
