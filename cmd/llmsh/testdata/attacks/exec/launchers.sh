# Programs that only launch other programs are not builtins.
#@ status: 127
#@ stderr: command not found
nohup @CANARY@
nice @CANARY@
setsid @CANARY@
sudo @CANARY@
chroot / @CANARY@
stdbuf -o0 @CANARY@
busybox sh -c @CANARY@
python3 -c 'import os; os.system("@CANARY@")'
perl -e 'system("@CANARY@")'
