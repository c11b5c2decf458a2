# Jobs stopped and never continued cannot keep a run alive: wait for a
# stopped job is ended by the time limit, and a script that ends leaves
# its stopped jobs behind (they are hung up, not waited for).
#@ args: -i @RO@ -o @RW@ --timeout 2s
#@ status: 124
#@ stdout: nested ended
llmsh -c 'sleep 1000 & kill -STOP %1; ( while :; do :; done ) & kill -STOP %2; echo nested ended'
for i in $(seq 1 100); do sleep 1000 & kill -STOP $!; done
kill -TERM %1
wait
