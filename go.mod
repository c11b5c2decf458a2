module github.com/llmsh/llmsh

go 1.25.0
