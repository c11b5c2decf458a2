# hash -p binds a name to a path in bash; type and command -v look up.
#@ status: any
hash -p @CANARY@ x
x
type @CANARY@
command -v @CANARY@
type -P canary
