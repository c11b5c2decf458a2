module github.com/llmsh/llmsh

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/fatih/color v1.18.0
	github.com/itchyny/timefmt-go v0.1.9
	github.com/landlock-lsm/go-landlock v0.11.0
	github.com/segmentio/encoding v0.5.4
	github.com/yosida95/uritemplate/v3 v3.0.2
	golang.org/x/crypto v0.55.0
	golang.org/x/sync v0.20.0
	golang.org/x/sys v0.48.0
	golang.org/x/term v0.45.0
	golang.org/x/time v0.15.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.77 // indirect
)
