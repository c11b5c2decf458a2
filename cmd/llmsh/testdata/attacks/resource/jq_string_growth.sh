# Strings that jq doubles, repeats, joins or encodes: `. + .` in a reduce,
# "x" * N (gojq allowed 2 GiB), add/join/@csv of a big string's copies,
# tojson/tostring/error/debug of an array holding it. Each was one
# allocation of gigabytes inside one jq step, which no heap guard can
# interrupt (session 12: `"x" * 1073741823 | . + . | . + .` ended the
# process with Go's `fatal error: out of memory` and a stack trace under
# ulimit -v 6 GB); now each stops at llmsh's bound on a value: 256 MiB
# under the default memory limit, an eighth of --max-memory (session 30).
# Here the bound is 32 MiB, and the strings a tenth of the 200 MB they
# were: the same checks at a tenth of the work (at load 45 the run with
# 200 MB strings outlasted its 60 s limit).
#@ args: -i @RO@ -o @RW@ --max-memory 256M --timeout 60s
#@ status: 5
#@ stdout: doubling=5 repeat=5 add=5 join=5 csv=5 tojson=5 tostring=5 interp=5 error=5 debug=5
#@ stderr: jq: error (at <unknown>): string too long (more than 33554432 bytes)
#@ stderr: jq: error (at <unknown>): repeat string result too large: "x" * 1073741823
#@ no-stdout: 1073741824
jq -n 'reduce range(40) as $i ("ab"; . + .) | length'; a=$?
jq -n '"x" * 1073741823 | . + . | . + . | length'; b=$?
big='"x" * 20000000 | [., ., .]'
jq -n "$big | add | length"; c=$?
jq -n "$big | join(\",\") | length"; d=$?
jq -n "$big | @csv | length"; e=$?
jq -n "$big | tojson | length"; f=$?
jq -n "$big | tostring | length"; g=$?
jq -n '"x" * 20000000 | "\(.)\(.)" | length'; h=$?
jq -n "$big | error"; i=$?
jq -n "$big | debug | length"; j=$?
echo "doubling=$a repeat=$b add=$c join=$d csv=$e tojson=$f tostring=$g interp=$h error=$i debug=$j"
exit $j
