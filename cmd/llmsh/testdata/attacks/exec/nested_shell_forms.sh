# Shell invocations other than -c are not run as programs either.
#@ status: any
bash @CANARY@
sh -s < /dev/null
bash --norc -i
sh -e -c @CANARY@
