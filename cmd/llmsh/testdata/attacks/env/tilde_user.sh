# ~user would read the host user database.
#@ status: 1
#@ stdout: ~root ~nobody
#@ no-stdout: /root
echo ~root ~nobody
echo ~root/x
cd ~root
