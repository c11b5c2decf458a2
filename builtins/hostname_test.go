package builtins_test

import "testing"

func TestHostname(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"hostname"}, "", "llmsh\n", "", 0},
		{nil, []string{"hostname", "-s"}, "", "llmsh\n", "", 0},
		{nil, []string{"hostname", "--fqdn"}, "", "llmsh\n", "", 0},
		{nil, []string{"hostname", "-d"}, "", "\n", "", 0},
		{nil, []string{"hostname", "new"}, "", "", "hostname: you must be root to change the host name\n", 1},
	})
}
