# bash's /dev/tcp pseudo-files open no socket.
#@ status: any
echo GET / > /dev/tcp/127.0.0.1/80
cat < /dev/tcp/127.0.0.1/22
exec 3<> /dev/tcp/127.0.0.1/80
echo x > /dev/udp/127.0.0.1/53
