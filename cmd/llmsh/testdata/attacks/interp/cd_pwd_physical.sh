# cd checks the host in interp; pwd -P evaluates symlinks.
#@ status: any
#@ no-stdout: @OUT@
cd dirlink; pwd -P
cd rootlink && pwd -P && ls
cd /proc/self/cwd; pwd -P
cd @RW@ && pwd -P
