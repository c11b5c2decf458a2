# Inputs that have made builtins and the interpreter panic elsewhere.
#@ status: any
#@ timeout: 3s
echo $(( 1 / 0 )); echo $(( -9223372036854775808 / -1 )); echo $(( 1 << 64 ))
a=(); echo ${a[-1]}; echo ${x:1:-5}; echo ${x:-9999999999999}
printf '%*d\n' -2147483648 1 | head -c 10; printf '%.*f\n' 999999999 1 | head -c 10
seq -f '%n' 1 2; seq 1 0 1 | head -1; seq 1e308 1e308 1e309 | head -1
cut -c 0 /dev/null; cut -f 99999999999999999999 /dev/null; sort -k 9999999999 /dev/null
head -c -99999999999999999999 /dev/null; tail -n +0 /dev/null; fold -w 0 /dev/null
tr -d '[:alpha:]-z' < /dev/null; tr 'a-\377' x < /dev/null; expr 1 / 0; expr substr x 9999999999999999999 1
printf '%(%s)T\n' 99999999999999999999; date -d @99999999999999999
awk 'BEGIN { printf "%*d", 2147483647, 1 }' | head -c 1
echo x | sed 's/x/\9/'; grep -E 'a{99999}' /dev/null; grep -P 'x' /dev/null
# Last: it runs until the time limit stops it.
jq -n '[range(1e9)] | length' | head -1
