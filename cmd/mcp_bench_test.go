package cmd

import (
	"io"
	"strings"
	"testing"

	"chainwatch/sandbox"
)

// BenchmarkMCPChainCall is one chain tool call (SPY, one strike, 4
// points) from the SDK's client over the in-memory transport to the
// answer; BenchmarkServedChainCommand is the same command line run on
// the same served client without MCP, so the difference is what the
// protocol and the tool's command line add.
//
//	go test -run '^$' -bench 'MCPChainCall|ServedChainCommand' -benchmem ./cmd
func BenchmarkMCPChainCall(b *testing.B) {
	r := startMCP(b, 1<<30, sandbox.Config{}) // a cap no run reaches
	args := map[string]any{"symbol": "SPY", "strikes": 1}
	for b.Loop() {
		if texts, isErr := r.call("chain", args); isErr {
			b.Fatal(texts)
		}
	}
}

func BenchmarkServedChainCommand(b *testing.B) {
	r := startMCP(b, 1<<30, sandbox.Config{}) // a cap no run reaches
	s := r.sess
	for b.Loop() {
		served := &servedClient{client: s.client, mon: s.mon, charge: s.cap.charge}
		code := Execute(Deps{in: strings.NewReader(""), out: io.Discard, errOut: io.Discard, getenv: s.getenv,
			now: s.client.Now, served: served}, []string{"chain", "--strikes=1", "--json", "--", "SPY"})
		if code != 0 {
			b.Fatal(code)
		}
	}
}
