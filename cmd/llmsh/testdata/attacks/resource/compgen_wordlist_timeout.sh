# compgen -W with a list of millions of words overstaying the time limit
# where no process ends with the run (session 25, red team): the list
# was parsed and expanded word by word (and -X's filter matched each)
# without looking at the run's context, so `compgen -W "${a[*]}" 1` of
# two million words answered a library Session.Run with a 500 ms limit
# after 28.5 s (load 30), and this script's four million with a 2 s
# limit after 70 s (414 MB). Both now look at it every 4096 words: 2.2 s.
#@ timeout: 2s
#@ answer-within: 15s
#@ status: 124
#@ stderr: timed out after 2s
#@ no-stdout: not reached
w=$(yes 1 | head -c 8000000)
compgen -W "$w" 1 | wc -l
compgen -W "$w" -X '*7*' 1 | wc -l
echo not reached
