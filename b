huBc
hBc
rc=0
