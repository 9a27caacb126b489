package cmd

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"chainwatch/sandbox"
	"chainwatch/sandbox/faults"
)

// A refusal is a tool error with the command's message and its exit
// status's meaning, and the server goes on answering.
func TestMCPRefusalsAreToolErrors(t *testing.T) {
	r := startMCP(t, 0, sandbox.Config{})
	for _, c := range []struct {
		tool string
		args map[string]any
		says []string
	}{
		{"chain", map[string]any{"symbol": "ZZZZ"}, []string{"no such symbol", "exit status 3: no data"}},
		{"chain", map[string]any{"symbol": "SPY", "strikes": -1}, []string{"--strikes -1", "exit status 2: bad input"}},
		{"chain", map[string]any{"symbol": "SPY", "expiry": "2026-11-21"}, []string{"not a trading day", "exit status 2"}},
		{"chain", map[string]any{"symbol": "SPY", "strikes": "ten"}, []string{"strikes"}}, // the schema's type
		{"chain", map[string]any{"symbol": "SPY", "json": "option"}, []string{"json"}},    // the server's flag
		{"chain", map[string]any{}, []string{"symbol"}},
		{"chain", map[string]any{"symbol": "SPY", "fields": []any{"nosuch"}}, []string{"unknown field", "exit status 2"}}, // required
		{"strategy", map[string]any{"legs": "SPY 2026-12-18 +C701.5"}, []string{"exit status 2"}},                         // a leg not listed
	} {
		texts, isErr := r.call(c.tool, c.args)
		got := strings.Join(texts, "\n")
		if !isErr {
			t.Errorf("%s %v: not an error: %q", c.tool, c.args, got[:min(len(got), 200)])
		}
		for _, w := range c.says {
			if !strings.Contains(got, w) {
				t.Errorf("%s %v: %q does not say %q", c.tool, c.args, got, w)
			}
		}
	}
	if texts, isErr := r.call("chain", map[string]any{"symbol": "SPY", "strikes": 1}); isErr || !strings.Contains(texts[0], `"strike"`) {
		t.Fatalf("after the refusals: %v %q", isErr, texts)
	}
	// A request the protocol refuses is an error, and the session lives on.
	_, err := r.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "nosuchtool", Arguments: map[string]any{}})
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		t.Fatalf("an unknown tool: %v, want a JSON-RPC error", err)
	}
	if _, err := r.cs.ListTools(t.Context(), nil); err != nil {
		t.Fatalf("tools/list after an unknown tool: %v", err)
	}
}

// --max-points is a hard cap: a call is charged the most it may spend
// (a chain by --dte: two requests) before it is sent, and refused naming
// the cap when that passes it; nothing reaches the service.
func TestMCPCapRefusesBeforeSending(t *testing.T) {
	r := startMCP(t, 10, sandbox.Config{})
	texts, isErr := r.call("chain", map[string]any{"symbol": "SPX"})
	if isErr || !strings.Contains(texts[1], "4 points spent") || !strings.Contains(texts[1], "4 of its cap of 10 points spent, 6 left") {
		t.Fatalf("the first SPX chain: %v %q", isErr, texts)
	}
	asked := r.reqs.Count("/option-and-underlying-quotes")
	texts, isErr = r.call("chain", map[string]any{"symbol": "SPX"})
	if !isErr || !strings.Contains(texts[0], "past the session's cap of 10 points (--max-points 10)") ||
		!strings.Contains(texts[0], "may spend 8 points") || !strings.Contains(texts[0], "nothing was sent") {
		t.Fatalf("the second SPX chain: %v %q", isErr, texts)
	}
	if n := r.reqs.Count("/option-and-underlying-quotes"); n != asked {
		t.Fatalf("the refused call asked the service: %d requests, then %d", asked, n)
	}
	// What fits still runs: a chain by expiry is one request.
	if texts, isErr := r.call("chain", map[string]any{"symbol": "SPY", "expiry": "2026-11-20", "strikes": 1}); isErr {
		t.Fatalf("a 4-point chain within 6 left: %q", texts)
	}
	if spent, limit := r.sess.cap.status(); spent != 8 || limit != 10 {
		t.Fatalf("the session: %d of %d", spent, limit)
	}
	if !strings.Contains(r.log.String(), "status=2") || !strings.Contains(r.log.String(), "points=0") {
		t.Errorf("the refusal is not logged: %s", r.log.String())
	}
}

// Without --max-points the cap is a share of the day's budget: the rig's
// 1,000 points a day.
func TestMCPDefaultCapIsAShareOfTheDay(t *testing.T) {
	r := startMCP(t, 0, sandbox.Config{})
	if _, limit := r.sess.cap.status(); limit != 250 {
		t.Fatalf("the default cap of a 1,000-point day is %d", limit)
	}
	if texts, isErr := r.call("scan", map[string]any{"name": "High IV", "all": true}); isErr {
		t.Fatalf("a 150-point scan within a 250-point cap: %q", texts)
	}
	texts, isErr := r.call("scan", map[string]any{"name": "High IV", "all": true})
	if !isErr || !strings.Contains(texts[0], "may spend 150 points") || !strings.Contains(texts[0], "of the day's budget; --max-points sets it") {
		t.Fatalf("a second 150-point scan: %v %q", isErr, texts)
	}
}

// A client that goes away mid-call ends the call (its request to the
// service with it) and the server.
func TestMCPClientDisconnectingMidCall(t *testing.T) {
	r := startMCP(t, 0, sandbox.Config{Faults: faults.Config{Rate: 1, Kinds: []faults.Kind{faults.KindSlow}, Slow: time.Minute}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	called := make(chan error, 1)
	go func() {
		_, err := r.cs.CallTool(ctx, &mcp.CallToolParams{Name: "chain", Arguments: map[string]any{"symbol": "SPY"}})
		called <- err
	}()
	// Every data request waits a minute: the call is under way.
	time.Sleep(300 * time.Millisecond)
	if strings.Contains(r.log.String(), `msg="mcp call"`) {
		t.Fatalf("the call ended before its client left: %s", r.log.String())
	}
	r.close()
	select {
	case <-r.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the server went on 20s after its client left")
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(r.log.String(), `msg="mcp call"`) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(r.log.String(), `msg="mcp call" tool=chain`) || strings.Contains(r.log.String(), "status=0") {
		t.Fatalf("the call did not end when its client left: %s", r.log.String())
	}
	<-called
}
