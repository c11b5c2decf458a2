# find -exec, -execdir, -ok and their + forms.
#@ status: any
#@ stderr: command not found
find . -maxdepth 0 -exec @CANARY@ \;
find . -maxdepth 0 -exec @CANARY@ {} +
find . -maxdepth 0 -execdir @CANARY@ {} \;
find . -maxdepth 0 -ok @CANARY@ \;
find . -maxdepth 0 -exec sh -c '@CANARY@' \;
