#@ status: 125
#@ stderr: maximum call depth exceeded
f() { f; }; f
