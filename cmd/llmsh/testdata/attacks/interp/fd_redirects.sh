# Numbered descriptors and duplications.
#@ status: any
exec 3< @SECRET@
cat <&3
exec 4> @OUT@/fd4
echo x >&4
exec 5<> @SECRET@
cat <&5
cat 0< @SECRET@
