#@ args: -i @RO@ -o @RW@ --timeout 1s
#@ status: 124
yes | while read -r l; do :; done
