# Trap strings run as commands.
#@ status: any
#@ stderr: command not found
trap '@CANARY@' EXIT
trap '@CANARY@' ERR
trap '@CANARY@' DEBUG
trap '@CANARY@' RETURN
f() { :; }; f
false
