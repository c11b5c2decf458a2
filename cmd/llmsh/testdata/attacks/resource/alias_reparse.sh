# A line of 10000 words that aliases ending in a blank expand one after
# another, after an alias of 300 KB: each expansion parsed the whole line
# again, 10000 parses of 300 KB (a minute of CPU; bash: under a second):
# the run ended at its time limit. Now it takes what bash's takes.
#@ heavy
#@ timeout: 20s
#@ status: 0
#@ stdout: 320001
#@ stdout: status 0
shopt -s expand_aliases
alias a='a '
alias big="echo $(printf '%300000s' '' | tr ' ' x) "
eval "big$(printf ' a%.0s' {1..10000}) | wc -c"
echo "status $?"
