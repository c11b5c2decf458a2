# factor of 2^128+1 (primes of 56 and 73 bits: GNU factor gave no answer
# in a minute either) overstaying the time limit where no process ends
# with the run (session 28, red team): Pollard's rho doubles its rounds
# and looked at the context once a round, so a stop landed up to a round
# late, as long as all the work before it: a library Session.Run with a
# 3 s limit answered after 6.3 s (the CLI's stuck watch ended it). The
# rounds now look at it every 4096 steps: 3.0 s. The limit here is 1 s
# (the factoring takes far longer either way): the run burns its limit
# in each of the CLI, library and serve runs, so 3 s cost 9 s of the
# suite's CPU.
#@ timeout: 1s
#@ answer-within: 30s
#@ status: 124
#@ stderr: timed out after 1s
#@ no-stdout: not reached
factor 340282366920938463463374607431768211457
echo not reached
