package cmd

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// mcpRig is an mcp session on the in-process sandbox (which counts its
// requests), served over the SDK's in-memory transport to the SDK's own
// client.
type mcpRig struct {
	t      testing.TB
	cs     *mcp.ClientSession
	reqs   *modeltest.Requests
	log    *syncBuffer
	sess   *mcpSession
	close  func() error  // drops the client's connection
	done   chan struct{} // closed when the server has stopped, with runErr
	runErr error
}

// startMCP serves a session capped at maxPoints (0: the default share).
func startMCP(t testing.TB, maxPoints int, cfg sandbox.Config) *mcpRig {
	t.Helper()
	r := &mcpRig{t: t, reqs: &modeltest.Requests{}, log: &syncBuffer{}, done: make(chan struct{})}
	cfg.Logger = r.reqs.Logger()
	client := modeltest.StartSandbox(t, cfg)
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "config"),
		"XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_DATA_HOME": filepath.Join(home, "data")}
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: client, Now: client.Now},
		Clock: feed.RealClock{NowFunc: client.Now}, Budget: feed.Budget{PerDay: 1000}})
	t.Cleanup(mon.Close)
	day := func(now time.Time) (int, int) { return dayBudget(mon, 1000, now) }
	r.sess = &mcpSession{client: client, mon: mon, getenv: func(k string) string { return env[k] },
		positions: filepath.Join(home, "positions.toml"), log: slog.New(slog.NewTextHandler(r.log, nil)),
		cap: newMCPCap(maxPoints, maxPoints > 0, day, client.Now)}
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		r.runErr = newMCPServer(r.sess).Run(ctx, st)
		close(r.done)
	}()
	tr := &droppable{Transport: ct}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.cs = cs
	r.close = func() error { return tr.conn.Close() }
	t.Cleanup(func() {
		cs.Close()
		cancel()
		select {
		case <-r.done:
		case <-time.After(20 * time.Second):
			t.Error("the server did not stop within 20s of its client")
		}
	})
	return r
}

// droppable is a client transport whose connection a test can drop, as a
// client process that dies drops its pipe, with calls still under way.
type droppable struct {
	mcp.Transport
	conn mcp.Connection
}

func (d *droppable) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := d.Transport.Connect(ctx)
	d.conn = c
	return c, err
}

// call calls tool and returns its texts and whether it is an error.
func (r *mcpRig) call(tool string, args map[string]any) ([]string, bool) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := r.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		r.t.Fatalf("%s %v: %v", tool, args, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return texts, res.IsError
}

// The server answers initialize with its tools, and lists one tool per
// headless command, each with an object schema of the command's own flags
// (not the exporter's or the service's) and a description of its cost.
func TestMCPListsAToolPerCommand(t *testing.T) {
	r := startMCP(t, 0, sandbox.Config{})
	if caps := r.cs.InitializeResult().Capabilities; caps == nil || caps.Tools == nil {
		t.Fatalf("initialize: no tools capability: %+v", caps)
	}
	var names []string
	for tool, err := range r.cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
		raw, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(raw, &s); err != nil || s.Type != "object" {
			t.Errorf("%s: schema %s", tool.Name, raw)
		}
		for _, shared := range []string{"json", "csv", "jq", "cost", "watch", "config", "base-url", "sandbox-clock"} {
			if _, ok := s.Properties[shared]; ok {
				t.Errorf("%s: the schema offers --%s, the server's", tool.Name, shared)
			}
		}
		if !strings.Contains(tool.Description, "points") {
			t.Errorf("%s: the description does not say its cost: %q", tool.Name, tool.Description)
		}
		if tool.Name == "chain" {
			if !slices.Equal(s.Required, []string{"symbol"}) || !strings.Contains(string(s.Properties["strikes"]), `"integer"`) ||
				!strings.Contains(string(s.Properties["expiry"]), `"string"`) {
				t.Errorf("chain's schema: %s", raw)
			}
		}
	}
	want := []string{"calendar", "chain", "gex", "positions", "quotes", "scan", "strategy", "taq", "trades", "vol"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
}

// Each tool runs its command and answers its --json rows, then the points
// spent and the session's left.
func TestMCPEachToolAnswersRows(t *testing.T) {
	r := startMCP(t, 0, sandbox.Config{})
	for _, c := range []struct {
		tool string
		args map[string]any
		key  string
	}{
		{"chain", map[string]any{"symbol": "SPY", "strikes": 2, "fields": []any{"option", "strike", "iv"}}, `"strike"`},
		{"quotes", map[string]any{"symbols": []any{"SPY", "QQQ"}}, `"symbol": "QQQ"`},
		{"vol", map[string]any{"symbol": "SPY"}, `"atm_iv"`},
		{"gex", map[string]any{"symbol": "SPY", "max-dte": 7}, `"strike"`},
		{"trades", map[string]any{"symbol": "SPY", "limit": 3}, `"premium"`},
		{"taq", map[string]any{"contract": "SPY261218C00700000", "since": "09:30"}, `"bid"`},
		{"calendar", map[string]any{"symbols": []any{"SPY"}}, `"underlying_symbol": "SPY"`},
		{"scan", map[string]any{"formula": []any{"iv30 > 40", "iv30"}}, `"symbol"`},
		{"strategy", map[string]any{"legs": "SPY 2026-12-18 +C700 -C710"}, `"delta"`},
		{"positions", map[string]any{}, ``},
	} {
		texts, isErr := r.call(c.tool, c.args)
		if isErr || len(texts) != 2 {
			t.Errorf("%s: error %v, %q", c.tool, isErr, texts)
			continue
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(texts[0]), &rows); err != nil || !strings.Contains(texts[0], c.key) {
			t.Errorf("%s: rows %q (%v), want %s", c.tool, texts[0][:min(len(texts[0]), 300)], err, c.key)
		}
		if c.tool == "chain" && (len(rows) != 4 || len(rows[0]) != 3) {
			t.Errorf("chain with three fields: %v", rows)
		}
		if !strings.Contains(texts[1], "points spent") || !strings.Contains(texts[1], "this session:") {
			t.Errorf("%s: %q does not say the points spent and left", c.tool, texts[1])
		}
	}
	if spent, _ := r.sess.cap.status(); spent == 0 {
		t.Error("the session booked no points")
	}
	if !strings.Contains(r.log.String(), `msg="mcp call" tool=chain`) || !strings.Contains(r.log.String(), "points=4") {
		t.Errorf("the calls are not logged with their cost: %s", r.log.String())
	}
}
