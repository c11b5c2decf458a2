# llmsh's internal command names written as $'\x01…' or $'\x00…', built
# with printf -v, raw bytes in the script text, eval text, or a function
# named so: none runs an internal command (issue 18, item 6).
#@ status: 0
#@ stdout: done
#@ stderr: $'\001errgate': command not found
#@ stderr: $'\001srcpop': command not found
#@ stderr: $'\001noerrexit': command not found
#@ stderr: not a valid identifier
#@ no-stdout: SHOULD_NOT_PRINT
$'\x01errgate' 0 1
$'\x01errinherit' 0
$'\x01noerrexit' cmdsubst 0
$'\x01srcpop' 0 1
printf -v n '\x01%s' srcpop; "$n" 0 0
printf -v n '\x01%s' errgate; command "$n" x 0
for k in 0 1 2 3 deadbeef; do $'\x01srcpop' 0 "$k"; done
trap 'echo trap; $'"'"'\x01errgate'"'"' 0 0' ERR; false; trap - ERR
eval "$(printf '\x01errgate 0 0')"
eval "$(printf '\x01f() { echo SHOULD_NOT_PRINT; }')"
sh -c "$(printf '\x01noerrexit() { echo SHOULD_NOT_PRINT; }; (true)')"
$'\x00status' 0
echo done
