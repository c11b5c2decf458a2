# source and . of host programs and of a script that names one.
#@ status: any
#@ stderr: command not found
source @CANARY@
. @CANARY@
echo '@CANARY@' > s.sh
source s.sh
. ./s.sh
