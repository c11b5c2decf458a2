# exec -a, exec -c, exec with redirections.
#@ status: any
#@ stderr: not found
exec -a name @CANARY@
exec -c @CANARY@
exec @CANARY@ 3>&1 </dev/null
