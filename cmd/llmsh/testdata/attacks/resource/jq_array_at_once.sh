# jq arrays made at once past the bound on one value (session 33, red
# team): `. + .` in a reduce doubled an array one allocation a step,
# faster than the memory guard's tick (480 MB of RSS under --max-memory
# 64M), and an assignment past an array's end made it whole at once:
# `null | setpath([500000000]; 1)` was 8 GB of array, which every
# collection scanned (29 s under --timeout 2). Both now fail, `array too
# long`, jq's status 5, at once (the bound is an eighth of the memory
# limit: 4 MiB here, 262144 elements).
#@ args: -i @RO@ -o @RW@ --max-memory 32M --timeout 20s
#@ status: 0
#@ stdout: st=5,5,5
#@ stderr: array too long (more than 262144 elements)
jq -n 'setpath([500000000]; 1) | length'; a=$?
jq -n '.[300000000] = 1 | length'; b=$?
jq -n 'reduce range(40) as $i ([1]; . + .) | length'; c=$?
echo "st=$a,$b,$c"
