module github.com/llmsh/llmsh

go 1.25.0

require (
	github.com/itchyny/gojq v0.12.20 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
)
