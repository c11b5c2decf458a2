# Input redirections and command substitutions of the secret.
#@ status: any
#@ stderr: No such file or directory
cat < @SECRET@
x=$(< @SECRET@); echo "[$x]"
read -r y < @SECRET@; echo "[$y]"
while read -r l; do echo "$l"; done < @SECRET@
mapfile -t arr < @SECRET@; echo "${arr[@]}"
