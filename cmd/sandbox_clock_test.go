package cmd

import (
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/model"
)

// TestWatchSandboxClock: --sandbox-clock puts the embedded sandbox and the
// screen on a simulated clock: at any real hour the market is open and its
// quotes move; --sandbox-speed runs it faster.
func TestWatchSandboxClock(t *testing.T) {
	var open bool
	var stamps []api.TimeOfDay
	res := watchCLI{env: homeEnv(t), during: func(cfg model.Config) error {
		open = market.MarketOpen(cfg.Now())
		for range 2 {
			ch, _, err := cfg.Client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPY", Date: cfg.Client.Today().String(), MinExpiry: "2026-11-27", MaxExpiry: "2026-11-27"})
			if err != nil {
				return err
			}
			stamps = append(stamps, ch.Timestamp)
			time.Sleep(300 * time.Millisecond) // 30 simulated seconds at speed 100
		}
		return nil
	}}.run(t, "--sandbox-clock", "2026-11-24T11:30:00-05:00", "--sandbox-speed", "100")
	if res.err != nil {
		t.Fatalf("%v\n%s", res.err, res.errOut)
	}
	if !open || len(stamps) != 2 || stamps[0] < api.NewTimeOfDay(11, 30, 0, 0) || stamps[1] <= stamps[0] {
		t.Fatalf("open %v, snapshot times %v: want an open market whose clock moves", open, stamps)
	}
}

func TestSandboxClockFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--sandbox-clock", "tomorrow"}, `--sandbox-clock "tomorrow": want an instant as 2026-11-24T11:30:00-05:00`},
		{[]string{"--sandbox-speed", "5"}, "--sandbox-speed needs --sandbox-clock"},
		{[]string{"--sandbox-clock", "2026-11-24T11:30:00-05:00", "--sandbox-speed", "0"}, "--sandbox-speed 0: want a speed above 0"},
	} {
		res := watchCLI{env: homeEnv(t)}.run(t, tc.args...)
		if res.err == nil || !strings.Contains(res.err.Error(), tc.want) || res.cfg != nil {
			t.Errorf("%q: %v, want %q", tc.args, res.err, tc.want)
		}
	}
}
