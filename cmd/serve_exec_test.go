package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chainwatch/config"
	"chainwatch/model"
	"chainwatch/serve"
)

// TestServeExecRunsEveryHeadlessCommand: over ssh a key runs every
// headless command that reads data, gex and strategy among them, and
// positions on its own positions file: what alice saves is in hers, and
// bob's list is empty.
func TestServeExecRunsEveryHeadlessCommand(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(_ *deskRig, cfg *model.Config) { cfg.Budget.PerDay = 100000 }, "alice", "bob")
	alice, bob := r.login("alice"), r.login("bob")
	for _, cmd := range []string{
		"chain SPY --strikes 2", "quotes SPY", "trades SPY --limit 3", "taq SPY261218C00700000 --since 09:30",
		"calendar SPY", "vol SPY", "gex SPY", "scan --formula 'iv30 > 40' --formula iv30",
		"strategy 'SPY 2026-12-18 +C700 -C710'", "version",
	} {
		out, errOut, code := runOver(t, alice, cmd)
		if code != 0 || out == "" {
			t.Errorf("%s: status %d, stdout %q, stderr %q", cmd, code, out[:min(len(out), 200)], errOut)
		}
	}

	out, errOut, code := runOver(t, alice, "strategy 'SPY 2026-12-18 +C700 -C710' --save --json")
	if code != 0 || !strings.Contains(errOut, "saved as position 1 in "+filepath.Join(r.keyDir("alice"), "positions.toml")) {
		t.Fatalf("strategy --save: status %d, %q, %q", code, out, errOut)
	}
	if saved, err := config.LoadPositions(filepath.Join(r.keyDir("alice"), "positions.toml")); err != nil || len(saved) != 1 {
		t.Fatalf("alice's positions file: %v %v", saved, err)
	}
	out, errOut, code = runOver(t, alice, "positions --json")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0]["symbol"] != "SPY" {
		t.Fatalf("alice's positions: status %d, %q, %q", code, out, errOut)
	}
	out, errOut, code = runOver(t, bob, "positions --json")
	if code != 0 || out != "[]\n" || !strings.Contains(errOut, "no positions saved") {
		t.Fatalf("bob's positions: status %d, %q, %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(r.home, "config", "chainwatch", "positions.toml")); err == nil {
		t.Error("a position went to the server's own positions file")
	}
}
