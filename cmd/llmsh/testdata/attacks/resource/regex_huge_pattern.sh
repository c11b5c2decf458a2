# One huge regular expression given to grep, sed, expr, awk or jq
# overstaying the time limit (session 24's leftover, closed in session
# 25, red team): each compiles it without looking at the run's context,
# in time and memory in proportion to it (this 2 MB alternation: 2-7 s
# each in grep -E, sed and expr, seconds in awk and jq), so a library
# Session.Run went on past its limit for as long as the compiles took
# (the llmsh command and a serve worker end a run so stuck 1 s past it).
# A pattern over 1 MiB now fails at once, as `[[ =~ ]]`'s does since
# session 24 (resource/rematch_huge_pattern): grep and sed with glibc's
# REG_ESIZE message (status 2, 1), grep -P with PCRE2's, expr 2, awk 2,
# jq 5. Before, this script took 61 s through the CLI at load 20 (its
# awk alone more than 50 s, stopped by a 60 s --timeout); now 2.5 s.
#@ timeout: 15s
#@ answer-within: 25s
#@ stdout: grep 2|gP 2|sed 1|expr 2|awk 2|jq 5|small 0|done
#@ stderr: grep: Regular expression too big
#@ stderr: grep: regular expression is too large
#@ stderr: Regular expression too big
#@ stderr: expr: Regular expression too big
#@ stderr: awk: run time error: regular expression compile failed (too big)
#@ stderr: jq: error (at <unknown>): regular expression too big
seq 100000 399999 | paste -sd'|' > p
p=$(cat p)
echo 250000 | grep -E -f p; printf 'grep %s|' $?
echo 250000 | grep -P "$p"; printf 'gP %s|' $?
echo 250000 | sed -E "s/$p/x/"; printf 'sed %s|' $?
expr 250000 : "\\($p\\)"; printf 'expr %s|' $?
echo 250000 | awk -v p="$p" '$0 ~ p'; printf 'awk %s|' $?
jq -n --arg p "$p" '"250000" | test($p)'; printf 'jq %s|' $?
echo 250000 | grep -cE "${p:0:70000}" >/dev/null; printf 'small %s|' $?
rm p
echo done
