# compgen's users, groups, services and hosts are llmsh's own, never the
# host's; -G, -d and a -F function's files go through the grants; enable
# cannot load a shared object; bind -f reads no host file.
#@ status: any
#@ stdout: users=llmsh
#@ stdout: groups=llmsh
#@ no-stdout: root
#@ no-stdout: daemon
#@ no-stdout: other.txt
echo "users=$(compgen -u | tr '\n' ' ' | sed 's/ $//')"
echo "groups=$(compgen -g | tr '\n' ' ' | sed 's/ $//')"
compgen -s; compgen -A hostname
compgen -G '@OUT@/*'
compgen -d @OUT@/
f() { COMPREPLY=($(cat @SECRET@ 2>/dev/null)); }
compgen -F f x 2>/dev/null
enable -f @OUT@/lib.so x
enable -f /lib/x86_64-linux-gnu/libc.so.6 x
bind -f @SECRET@
compgen -c @CANARY@
complete -C @CANARY@ y; compgen -W "$(complete -p y)"
