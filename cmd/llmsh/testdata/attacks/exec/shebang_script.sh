# A script in the -o tree whose #! names the canary.
#@ status: any
printf '#!@CANARY@\necho body\n' > s.sh
./s.sh
sh s.sh
