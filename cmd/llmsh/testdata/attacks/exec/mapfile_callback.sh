# mapfile -C runs a callback.
#@ status: any
mapfile -C @CANARY@ -c 1 arr <<< x
