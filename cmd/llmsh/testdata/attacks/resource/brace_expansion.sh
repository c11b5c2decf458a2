# A brace expansion of 10^8 words is refused, not built. (interp leaves the
# status at 0 after this expansion error; bash would try to build it.)
#@ status: any
#@ stderr: brace expansion
echo {1..100000000}
