module github.com/llmsh/llmsh

go 1.26.0

require (
	github.com/itchyny/gojq v0.12.20 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/term v0.45.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
