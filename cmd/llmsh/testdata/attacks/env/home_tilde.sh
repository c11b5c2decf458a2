# $HOME and ~ are llmsh's own, not the host's.
#@ stdout: /home/llmsh /home/llmsh
#@ no-stdout: @OUT@
echo $HOME ~
echo ~/x ~+ ~-
cd ~
pwd
