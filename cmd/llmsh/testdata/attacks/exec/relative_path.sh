# A host program by relative path, and by ./name after cd.
#@ status: 127
#@ stderr: ../out/canary: command not found
../out/canary
cd @RO@ && ./../out/canary
