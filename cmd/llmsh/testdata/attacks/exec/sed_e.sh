# GNU sed's e command and the e flag of s run llmsh's own commands
# (sh -c): a host program, by path or by PATH lookup, is not found.
#@ status: any
#@ stderr: @CANARY@: command not found
#@ stderr: nosuchcmd: command not found
#@ stderr: e/r/w commands disabled in sandbox mode
#@ stdout: made-by-sed
echo x | sed 'e @CANARY@'
echo x | sed '1e @CANARY@'
echo @CANARY@ | sed 's/.*/&/e'
echo @CANARY@ | sed 'e'
echo x | sed 'e nosuchcmd; exec @CANARY@; env @CANARY@; xargs @CANARY@ </dev/null'
echo 'echo made-by-sed' | sed e
echo x | sed --sandbox 'e @CANARY@'
