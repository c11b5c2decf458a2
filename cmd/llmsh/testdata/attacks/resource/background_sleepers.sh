# Many background jobs that never finish: the time limit ends the wait.
#@ args: -i @RO@ -o @RW@ --timeout 2s
#@ status: nonzero
for i in $(seq 1 1000); do sleep 1000 & done
wait
