package cmd

import (
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/model"
)

// TestReplayScreenOnTheRecording: `chainwatch replay` hands the screen a
// client that answers from the recording, on a clock that starts at --at
// and runs at --speed, under the REPLAY badge; a day or a moment not
// recorded is exit status 3 before any screen.
func TestReplayScreenOnTheRecording(t *testing.T) {
	env := scanEnv(t)
	var live *api.SymbolWithOptions
	rec := watchCLI{env: env, during: func(cfg model.Config) error { // the screen records the whole chain
		var err error
		live, _, err = cfg.Client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPY", Date: cfg.Client.Today().String()})
		return err
	}}.run(t)
	if rec.err != nil {
		t.Fatal(rec.err)
	}
	var moved time.Duration
	var chain *api.SymbolWithOptions
	var resp *api.Response
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		t0 := cfg.Now()
		time.Sleep(100 * time.Millisecond)
		moved = cfg.Now().Sub(t0)
		var err error
		chain, resp, err = cfg.Client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPY", Date: cfg.Client.Today().String()})
		return err
	}}.run(t, "replay", "SPY", "--date", "2026-11-20", "--at", "14:00:00", "--speed", "50")
	if res.err != nil || res.cfg == nil {
		t.Fatalf("err %v, stderr %q", res.err, res.errOut)
	}
	if res.cfg.Source != "REPLAY" || res.cfg.Symbol != "SPY" || !res.cfg.Client.Replaying() || res.cfg.ClockSpeed != 50 {
		t.Fatalf("config %+v", *res.cfg)
	}
	if moved < 2*time.Second || moved > time.Minute {
		t.Fatalf("the replay's clock moved %v in 100ms at speed 50", moved)
	}
	if !resp.FromRecording || resp.Cost != 0 || chain == nil || len(chain.Options) != len(live.Options) || chain.Options[0] != live.Options[0] {
		t.Fatalf("the screen's chain: %+v %v", resp, chain != nil)
	}
	for _, args := range [][]string{
		{"replay", "SPY", "--date", "2026-11-19"},
		{"replay", "SPY", "--date", "2026-11-20", "--at", "09:30"},
	} {
		res := watchCLI{env: env}.run(t, args...)
		if exitCode(res.err) != 3 || res.cfg != nil {
			t.Fatalf("%v: status %d (%v), screen started %v", args, exitCode(res.err), res.err, res.cfg != nil)
		}
	}
	if res := (watchCLI{env: env}).run(t, "replay", "--date", "2026-11-20", "--speed", "0"); exitCode(res.err) != 2 {
		t.Fatalf("--speed 0: %v", res.err)
	}
}

// TestReplayClock: a pause holds the moment, a change of speed keeps the
// moment reached, a jump stays inside the recorded span.
func TestReplayClock(t *testing.T) {
	start := time.Date(2026, 11, 24, 10, 0, 5, 0, api.Eastern)
	c := newReplayClock(start, 1)
	c.first, c.last = start.Add(-5*time.Second), start.Add(40*time.Second)
	c.TogglePause()
	held := c.Now()
	time.Sleep(20 * time.Millisecond)
	if !c.Now().Equal(held) || !strings.Contains(c.State(), "paused") {
		t.Fatalf("paused clock moved: %v then %v (%s)", held, c.Now(), c.State())
	}
	c.Jump(time.Minute)
	if !c.Now().Equal(c.last) {
		t.Fatalf("a jump past the end: %v, want %v", c.Now(), c.last)
	}
	c.Jump(-time.Hour)
	if !c.Now().Equal(c.first) {
		t.Fatalf("a jump before the start: %v, want %v", c.Now(), c.first)
	}
	c.Scale(2000)
	c.TogglePause()
	if !strings.HasSuffix(c.State(), "x1000") {
		t.Fatalf("state %q: the speed is capped at 1000", c.State())
	}
	time.Sleep(10 * time.Millisecond)
	if !c.Now().After(c.first.Add(5 * time.Second)) {
		t.Fatalf("at x1000 10ms moved the clock only to %v", c.Now())
	}
}
