# GNU sed's e command and the e flag of s.
#@ status: 1
#@ stderr: llmsh runs no programs
echo x | sed 'e @CANARY@'
echo x | sed '1e @CANARY@'
echo @CANARY@ | sed 's/.*/&/e'
echo x | sed 'e'
