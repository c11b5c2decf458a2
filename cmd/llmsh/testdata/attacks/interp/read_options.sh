# read -s (terminal state), -e (readline), -u (descriptor).
#@ status: any
#@ stdin: line\n
read -s x; echo "[$x]"
read -e y; echo "[$y]"
read -u 3 z; echo "[$z]"
