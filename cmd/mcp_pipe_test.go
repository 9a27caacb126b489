package cmd

import (
	"bufio"
	"bytes"
	"chainwatch/config"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpChild is `chainwatch mcp args...` as an agent client starts it: this
// test binary run as main (TestMain), on the embedded sandbox at
// benchClock, an open market, in a home of its own.
func mcpChild(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	return mcpChildIn(t, t.TempDir(), args...)
}

func mcpChildIn(t *testing.T, root string, args ...string) *exec.Cmd {
	t.Helper()
	c := exec.Command(os.Args[0])
	c.Env = childEnv(root, append([]string{"mcp", "--sandbox-clock", benchClock, "--no-history"}, args...))
	return c
}

// connectChild connects the SDK's client to the child over its pipes.
func connectChild(t *testing.T, c *exec.Cmd) *mcp.ClientSession {
	t.Helper()
	var errOut syncBuffer
	c.Stderr = &errOut
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.CommandTransport{Command: c, TerminateDuration: 10 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr %q", err, errOut.String())
	}
	t.Cleanup(func() {
		cs.Close()
		if strings.Contains(errOut.String(), "panic") {
			t.Errorf("the child panicked: %s", errOut.String())
		}
	})
	return cs
}

func callChild(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	var texts []string
	for _, c := range res.Content {
		texts = append(texts, c.(*mcp.TextContent).Text)
	}
	return strings.Join(texts, "\n"), res.IsError
}

// The "done when", over a pipe to a real `chainwatch mcp`: it
// answers initialize with its tools capability, lists the tools with
// object schemas, answers SPY's chain with rows and the points spent,
// SPYY with an error saying "no such symbol", and goes on serving.
func TestMCPChildAnswersOverAPipe(t *testing.T) {
	cs := connectChild(t, mcpChild(t))
	if caps := cs.InitializeResult().Capabilities; caps == nil || caps.Tools == nil {
		t.Fatalf("initialize: %+v", caps)
	}
	listed := map[string]bool{}
	for tool, err := range cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(tool.InputSchema)
		listed[tool.Name] = bytes.Contains(raw, []byte(`"type":"object"`))
	}
	for _, name := range []string{"chain", "quotes", "vol", "gex", "trades", "calendar", "scan", "strategy"} {
		if !listed[name] {
			t.Errorf("tools/list: no %s with an object schema (%v)", name, listed)
		}
	}
	got, isErr := callChild(t, cs, "chain", map[string]any{"symbol": "SPY"})
	if isErr || !strings.Contains(got, `"strike": `) || !strings.Contains(got, "4 points spent") {
		t.Fatalf("chain SPY: %v %q", isErr, got[:min(len(got), 300)])
	}
	got, isErr = callChild(t, cs, "chain", map[string]any{"symbol": "SPYY"})
	if !isErr || !strings.Contains(got, "no such symbol") || !strings.Contains(got, "exit status 3") {
		t.Fatalf("chain SPYY: %v %q", isErr, got)
	}
	if got, isErr = callChild(t, cs, "vol", map[string]any{"symbol": "SPY"}); isErr || !strings.Contains(got, `"atm_iv"`) {
		t.Fatalf("vol SPY after SPYY: %v %q", isErr, got[:min(len(got), 300)])
	}
}

// With --max-points 10 a second whole-chain SPX call is refused naming
// the cap: the first spent 4 and may have spent 8.
func TestMCPChildMaxPoints(t *testing.T) {
	cs := connectChild(t, mcpChild(t, "--max-points", "10"))
	if got, isErr := callChild(t, cs, "chain", map[string]any{"symbol": "SPX"}); isErr {
		t.Fatalf("the first SPX chain: %q", got)
	}
	got, isErr := callChild(t, cs, "chain", map[string]any{"symbol": "SPX"})
	if !isErr || !strings.Contains(got, "past the session's cap of 10 points (--max-points 10)") {
		t.Fatalf("the second SPX chain: %v %q", isErr, got)
	}
}

// Without --max-points the cap is a quarter of the day's budget as the
// screen works it out: [budget] points_per_day = 40 is a cap of 10.
func TestMCPChildDefaultCapFromConfig(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "config", "chainwatch")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[budget]\npoints_per_day = 40\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cs := connectChild(t, mcpChildIn(t, root))
	if got, isErr := callChild(t, cs, "chain", map[string]any{"symbol": "SPX"}); isErr || !strings.Contains(got, "of its cap of 10 points") {
		t.Fatalf("the first SPX chain: %v %q", isErr, got)
	}
	got, isErr := callChild(t, cs, "chain", map[string]any{"symbol": "SPX"})
	if !isErr || !strings.Contains(got, "past the session's cap of 10 points (0.25 of the day's budget; --max-points sets it)") {
		t.Fatalf("the second SPX chain: %v %q", isErr, got)
	}
}

// Malformed requests are errors, not a crash: arguments that are not an
// object and an unknown method are answered with JSON-RPC errors and the
// server goes on; a stream that is not JSON ends it with a message and
// exit status 1.
func TestMCPChildMalformedRequests(t *testing.T) {
	c := mcpChild(t)
	in, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut syncBuffer
	c.Stderr = &errOut
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	t.Cleanup(func() { c.Process.Kill() })
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		if _, err := io.WriteString(in, s+"\n"); err != nil {
			t.Fatalf("write %s: %v", s, err)
		}
	}
	answer := func(id string) string {
		t.Helper()
		timeout := time.After(30 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the server closed its output before answering %s; stderr %q", id, errOut.String())
				}
				if strings.Contains(l, `"id":`+id+`,`) {
					return l
				}
			case <-timeout:
				t.Fatalf("no answer to %s in 30s", id)
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if a := answer("1"); !strings.Contains(a, `"tools":`) {
		t.Fatalf("initialize: %s", a)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chain","arguments":[1,2]}}`)
	if a := answer("2"); !strings.Contains(a, `"error"`) && !strings.Contains(a, `"isError":true`) {
		t.Fatalf("arguments that are not an object: %s", a)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"no/such/method"}`)
	if a := answer("3"); !strings.Contains(a, `"error"`) {
		t.Fatalf("an unknown method: %s", a)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	if a := answer("4"); !strings.Contains(a, `"name":"chain"`) {
		t.Fatalf("tools/list after the malformed requests: %s", a[:min(len(a), 300)])
	}
	send(`{this is not json`)
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != ExitService || strings.Contains(errOut.String(), "goroutine ") ||
			!strings.Contains(errOut.String(), "mcp: ") {
			t.Fatalf("after a stream that is not JSON: %v, stderr %q", err, errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server went on 30s after a stream that is not JSON")
	}
}

// TestMCPChildRecordsItsAnswers: `mcp` opens its client where every
// headless command does (headless.connect), so the flight recorder keeps
// what an agent's calls were answered; --no-record keeps nothing.
func TestMCPChildRecordsItsAnswers(t *testing.T) {
	for _, off := range []bool{false, true} {
		root := t.TempDir()
		var args []string
		if off {
			args = append(args, "--no-record")
		}
		cs := connectChild(t, mcpChildIn(t, root, args...))
		if got, isErr := callChild(t, cs, "chain", map[string]any{"symbol": "SPY"}); isErr {
			t.Fatalf("chain SPY: %q", got)
		}
		cs.Close()
		dir, err := config.RecordDir(func(k string) string {
			return map[string]string{"HOME": filepath.Join(root, "home")}[k]
		})
		if err != nil {
			t.Fatal(err)
		}
		var bytes int64
		filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if fi, err := d.Info(); err == nil {
					bytes += fi.Size()
				}
			}
			return nil
		})
		if recorded := bytes > 0; recorded == off {
			t.Errorf("--no-record %v: %d bytes recorded under %s", off, bytes, dir)
		}
	}
}
