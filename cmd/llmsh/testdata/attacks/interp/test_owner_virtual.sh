# test -O/-G on virtual and real files (interp assumes *syscall.Stat_t).
#@ status: any
echo x > /tmp/v
test -O /tmp/v; test -G /tmp/v; test -O @RO@/in.txt; test -G work.txt
[[ -O /tmp/v ]]; [[ -G /tmp/v ]]
eval 'test -O /tmp/v; [[ -G /tmp/v ]]'
test -N /tmp/v; test -k /tmp/v; test -u /tmp/v; test -g /tmp/v
test -p /tmp/v; test -S /tmp/v; test -b /tmp/v; test -c /tmp/v; test -t 0
test -O @SECRET@ && echo owned
