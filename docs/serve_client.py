#!/usr/bin/env python3
"""A client of `llmsh serve` (JSON-RPC 2.0, one message per line; docs/serve.md).

Usage: python3 serve_client.py SOCKET   (runs the demo in main)
Standard library only. CI runs it against a real server (sessionserver TestPythonClient).
"""
import json
import socket
import sys


class LlmshError(Exception):
    def __init__(self, code, message):
        super().__init__(f"{message} (code {code})")
        self.code = code


class LlmshClient:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.file = self.sock.makefile("rwb")
        self.last_id = 0

    def send(self, line):
        self.file.write(line + b"\n")
        self.file.flush()

    def receive(self, want_id, on_output=None):
        """Read messages until the answer to want_id; output notifications go to on_output."""
        while True:
            line = self.file.readline()
            if not line:
                raise ConnectionError("the server closed the connection")
            msg = json.loads(line)
            if msg.get("method") == "output":
                if on_output:
                    on_output(msg["params"]["stream"], msg["params"]["data"])
            elif msg.get("id") == want_id:
                if "error" in msg:
                    raise LlmshError(msg["error"]["code"], msg["error"]["message"])
                return msg["result"]

    def call(self, method, on_output=None, **params):
        self.last_id += 1
        request = {"jsonrpc": "2.0", "id": self.last_id, "method": method, "params": params}
        self.send(json.dumps(request).encode())
        return self.receive(self.last_id, on_output)

    def open(self, **options):
        return self.call("open", **options)["session"]

    def run(self, session, script, stdin="", on_output=None):
        return self.call("run", on_output, session=session, script=script, stdin=stdin)

    def close(self):
        self.sock.close()  # hanging up cancels this connection's runs; sessions stay open


def main(path):
    client = LlmshClient(path)
    print("ping:", client.call("ping")["sessions"], "sessions")
    session = client.open(timeout="30s")
    script = 'x=42; f() { echo "f:$1"; }; mkdir -p /work; cd /work; echo out; echo err >&2; read line; echo "$line"; exit 3'
    result = client.run(session, script, stdin="from stdin\n",
                        on_output=lambda stream, data: print(f"  {stream}: {data!r}"))
    print("exit:", result["exit_code"], "virtual files:", result["virtual_files"])
    snapshot = client.call("snapshot", session=session)["snapshot"]
    client.call("close", session=session)
    restored = client.call("restore", snapshot=snapshot)["session"]
    result = client.run(restored, 'echo "$x $PWD"; f restored')
    print("restored:", repr(result["stdout"]))
    try:
        client.run(session, "echo")
    except LlmshError as e:
        print("closed session:", e.code)
    client.send(b"{this is not json")
    try:
        client.receive(None)
    except LlmshError as e:
        print("malformed line:", e.code)
    print("still served:", client.call("ping")["sessions"], "session")
    client.call("close", session=restored)
    client.close()


if __name__ == "__main__":
    main(sys.argv[1])
