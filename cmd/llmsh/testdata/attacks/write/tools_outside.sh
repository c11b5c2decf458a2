# Tools that write: tee, sed w, awk redirection, split, cp, sort -o.
#@ status: any
echo x | tee @OUT@/t1 >/dev/null
echo x | sed -n "w @OUT@/t2"
awk 'BEGIN { print "x" > "@OUT@/t3"; print "y" >> "@SECRET@" }'
echo x | sort -o @OUT@/t4
cp work.txt @OUT@/t5
split -l 1 work.txt @OUT@/part
echo x | split - @OUT@/p2
tar cf @OUT@/t6.tar work.txt
