# sed, jq and bc loops honour the time limit.
#@ args: -i @RO@ -o @RW@ --timeout 1s
#@ status: 124
echo | sed ':a;ba' & jq -n 'def f: f; f' & echo 'while(1){}' | bc
