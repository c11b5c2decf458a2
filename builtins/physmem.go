package builtins

// virtualMemory is the physical memory of the machine llmsh's commands
// run on, as they see it: sort's default buffer (an eighth, at most 512
// MiB) and -S N%. It is a fixed number, as nproc's 1 and uname's names
// are: the host's own (sysinfo(2)) told a script the machine's memory
// to the byte (session 29, red team: `sort -S N%` says "too large" once
// N% of it passes 2^63-1, so a bisection found 25276502016 bytes). 4 GiB
// keeps the default buffer at its 512 MiB, as on any host of that much.
const virtualMemory = 4 << 30

// physMemory is the machine's physical memory in bytes, virtualMemory.
func physMemory() int64 { return virtualMemory }
