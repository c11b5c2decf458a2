# Issue 18 B1: pwd -P reached through command or builtin evaluated $PWD's
# links on the host (where a link leads, whether a host path is a
# directory, the binary's host path through /proc/self/exe).
#@ status: any
#@ no-stdout: @OUT@
#@ no-stderr: not a directory
#@ no-stderr: @OUT@
PWD=@RW@/dirlink command pwd -P
PWD=@RW@/dirlink builtin pwd -P
PWD=@RW@/link-abs/x builtin pwd -P
PWD=@RW@/link-rel command command pwd -P
PWD=/proc/self/exe command pwd -P
PWD=/proc/self/cwd builtin pwd -P
cd @RW@/dirlink 2>/dev/null; command pwd -P
f=pwd; PWD=@RW@/dirlink command $f -P
eval 'PWD=@RW@/dirlink pwd -P'
sh -c 'PWD=@RW@/dirlink builtin pwd -P'
echo "$(PWD=@RW@/dirlink command pwd -P)"
