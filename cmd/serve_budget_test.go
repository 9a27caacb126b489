package cmd

import (
	"strings"
	"testing"

	"chainwatch/model"
	"chainwatch/model/modeltest"
	"chainwatch/serve"
)

// The "done when": ten `scan --all` over ssh against a 100-point
// day spend at most 250 points. A scan of all results is 150 points, so
// each is refused before it is sent, with the figures and exit status 2,
// and the scanner is never asked.
func TestServeCommandsDrawOnTheDesksBudget(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(_ *deskRig, cfg *model.Config) { cfg.Budget.PerDay = 100 }, "alice")
	c := r.login("alice")
	for i := range 10 {
		_, errOut, code := runOver(t, c, "scan --name 'High IV' --all --json")
		if code != ExitInput || !strings.Contains(errOut, "would spend 150 points, past the desk's budget") ||
			!strings.Contains(errOut, "of its 100 points today") {
			t.Fatalf("scan %d: status %d, %q; want 2 and the figures", i, code, errOut)
		}
	}
	if spent := r.desk.mon.Stats(modeltest.Now).SessionSpent; spent > 250 {
		t.Fatalf("ten scans spent %d points of a 100-point day", spent)
	}
	if n := r.reqs.Count("/custom-scanner"); n != 0 {
		t.Fatalf("the scanner was asked %d times", n)
	}
	// What fits is run and charged: a chain is 4 points.
	_, errOut, code := runOver(t, c, "chain SPY --json=option")
	if code != 0 || !strings.Contains(errOut, "points spent") {
		t.Fatalf("a chain within the day: status %d, %q", code, errOut)
	}
	if st := r.desk.mon.Stats(modeltest.Now); st.DaySpent == 0 || st.DaySpent > 100 {
		t.Fatalf("the day's points after a chain: %+v", st)
	}
}

// Each key has its own share of the desk's day: by default the day split
// evenly among the file's keys. Alice's chains stop at her 50 of the 100
// (refused with her figures), and Bob still has his.
func TestServeEachKeyHasItsShare(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(_ *deskRig, cfg *model.Config) { cfg.Budget.PerDay = 100 }, "alice", "bob")
	alice := r.login("alice")
	refused := ""
	for range 20 {
		_, errOut, code := runOver(t, alice, "chain SPY --json=option")
		if code == ExitInput {
			refused = errOut
			break
		}
		if code != 0 {
			t.Fatalf("alice's chain: status %d, %q", code, errOut)
		}
	}
	if !strings.Contains(refused, "past this key's share") || !strings.Contains(refused, "of its 50 (") {
		t.Fatalf("alice was not refused at her share: %q", refused)
	}
	if spent := r.desk.mon.Stats(modeltest.Now).DaySpent; spent > 50 {
		t.Fatalf("alice's chains spent %d points of her 50", spent)
	}
	if _, errOut, code := runOver(t, r.login("bob"), "chain SPY --json=option"); code != 0 {
		t.Fatalf("bob's share is his: status %d, %q", code, errOut)
	}
}

// [serve] key_share sets a key's share: a twentieth of a 100-point day is
// 5 points, one chain (4) and not two.
func TestServeKeyShareFromConfig(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(r *deskRig, cfg *model.Config) {
		cfg.Budget.PerDay, r.keyShare = 100, 0.05
	}, "alice", "bob")
	c := r.login("bob")
	if _, errOut, code := runOver(t, c, "chain SPY --json=option"); code != 0 {
		t.Fatalf("bob's first chain: status %d, %q", code, errOut)
	}
	if _, errOut, code := runOver(t, c, "chain SPY --json=option"); code != ExitInput || !strings.Contains(errOut, "this key 4 of its 5 (1 left)") {
		t.Fatalf("bob past a key_share of 0.05: status %d, %q", code, errOut)
	}
}
