package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/config"
	"chainwatch/model"
	"chainwatch/model/modeltest"
	"chainwatch/serve"
)

// mcpOver runs `ssh HOST -- mcp args...` as c and connects the SDK's
// client to it over the session's stdin and stdout.
func mcpOver(t *testing.T, c *gossh.Client, args string) (*mcp.ClientSession, *syncBuffer) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errOut := &syncBuffer{}
	sess.Stderr = errOut
	if err := sess.Start("mcp " + args); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: readCloser{out, sess}, Writer: in}, nil)
	if err != nil {
		t.Fatalf("mcp over ssh: %v; stderr %q", err, errOut.String())
	}
	t.Cleanup(func() { cs.Close(); sess.Close() })
	return cs, errOut
}

type readCloser struct {
	r interface{ Read([]byte) (int, error) }
	c interface{ Close() error }
}

func (rc readCloser) Read(p []byte) (int, error) { return rc.r.Read(p) }
func (rc readCloser) Close() error               { return rc.c.Close() }

// Over serve an authorized key runs `ssh HOST -- mcp`: its calls run on
// the desk's one monitor, charged to the desk's day and the key's share
// as its commands are (refused past the share with the desk's figures),
// on the key's own positions, and logged in the server's log.
func TestServeRunsMCPForAKey(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(_ *deskRig, cfg *model.Config) { cfg.Budget.PerDay = 100 }, "alice", "bob")
	cs, errOut := mcpOver(t, r.login("alice"), "--max-points 1000")
	n := 0
	for _, err := range cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != len(mcpTools) {
		t.Fatalf("over ssh: %d tools", n)
	}
	got, isErr := callChild(t, cs, "chain", map[string]any{"symbol": "SPY", "strikes": 1})
	if isErr || !strings.Contains(got, `"strike"`) || !strings.Contains(got, "4 points spent") {
		t.Fatalf("chain SPY over ssh: %v %q", isErr, got)
	}
	if st := r.desk.mon.Stats(modeltest.Now); st.DaySpent != 4 {
		t.Fatalf("the call is not in the desk's day: %+v", st)
	}
	// Alice's share is 50 of the desk's 100: her cap of 1,000 does not
	// lift it.
	refused := ""
	for range 15 {
		got, isErr := callChild(t, cs, "chain", map[string]any{"symbol": "SPY", "expiry": "2026-11-20", "strikes": 1})
		if isErr {
			refused = got
			break
		}
	}
	if !strings.Contains(refused, "this key's share of it") || !strings.Contains(refused, "exit status 2") {
		t.Fatalf("past alice's share: %q", refused)
	}
	got, isErr = callChild(t, r.mustMCP(t, "bob"), "strategy", map[string]any{"legs": "SPY 2026-12-18 +C700 -C710", "save": true})
	if isErr || !strings.Contains(got, filepath.Join(r.keyDir("bob"), "positions.toml")) {
		t.Fatalf("bob's strategy --save over mcp: %v %q", isErr, got)
	}
	if saved, err := config.LoadPositions(filepath.Join(r.keyDir("bob"), "positions.toml")); err != nil || len(saved) != 1 {
		t.Fatalf("bob's positions: %v %v", saved, err)
	}
	if !strings.Contains(r.log.String(), `msg="mcp call" key=alice tool=chain`) ||
		!strings.Contains(errOut.String(), `msg="mcp call"`) {
		t.Fatalf("the calls are not logged: server %q, session %q", r.log.String(), errOut.String())
	}
}

func (r *deskRig) mustMCP(t *testing.T, name string) *mcp.ClientSession {
	cs, _ := mcpOver(t, r.login(name), "")
	return cs
}
