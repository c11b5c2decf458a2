package sessionserver_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	. "github.com/llmsh/llmsh/server/sessionserver"
)

// TestPythonClient runs the Python client of docs/serve.md
// (docs/serve_client.py) against a real server: the documented client
// must work as shown.
func TestPythonClient(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: docs/serve_client.py is not tested")
	}
	_, path := start(t, Config{})
	out, err := exec.Command(py, filepath.Join("..", "..", "docs", "serve_client.py"), path).CombinedOutput()
	if err != nil {
		t.Fatalf("serve_client.py: %v\n%s", err, out)
	}
	const want = `ping: 0 sessions
  stdout: 'out\n'
  stderr: 'err\n'
  stdout: 'from stdin\n'
exit: 3 virtual files: ['/work/']
restored: '42 /work\nf:restored\n'
closed session: -32001
malformed line: -32700
still served: 1 session
`
	if string(out) != want {
		t.Errorf("serve_client.py printed\n%s\nwant\n%s", out, want)
	}
}
