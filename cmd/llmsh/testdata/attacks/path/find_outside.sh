# find walking from / or from .. never reports files outside the grants.
#@ status: any
#@ no-stdout: secret
#@ no-stdout: other.txt
find / -name secret
find .. -name 'other*'
find @OUT@
