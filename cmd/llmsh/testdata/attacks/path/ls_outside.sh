# Listing outside the grants shows nothing of the host.
#@ status: 2
#@ no-stdout: secret
#@ no-stdout: other.txt
#@ stderr: ls: cannot access '@OUT@': No such file or directory
ls @OUT@
ls -la ..
ls -R ../out
