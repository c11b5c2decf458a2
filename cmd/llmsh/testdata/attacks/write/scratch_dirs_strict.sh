# With --strict, scratch directories are refused like virtual files, and
# the message says why.
#@ args: -i @RO@ -o @RW@ --strict --timeout 10s
#@ status: 1
#@ stderr: mkdir: cannot create directory '/tmp/work': Permission denied (outside the writable paths)
#@ stderr: mktemp: failed to create directory via template '/tmp/tmp.XXXXXXXXXX': Permission denied (outside the writable paths)
#@ stderr: touch: cannot touch '/x': Permission denied (outside the writable paths)
#@ stderr: llmsh: line 14: /y: Permission denied (outside the writable paths)
#@ stderr: cat: /z: No such file or directory
#@ no-stderr: discarded virtual files
mkdir -p /tmp/work
mktemp -d
touch /x
echo > /y
cat /z
