package cmd

import (
	"runtime/debug"
	"testing"
)

// TestOneShotGC: a one-shot command turns the collector off below the
// lower of its limit and the process's; two side by side share it and
// the last to end restores the setting; GOGC or GOMEMLIMIT in the
// environment leaves it alone. Not parallel: the setting is the process's.
func TestOneShotGC(t *testing.T) {
	none := func(string) string { return "" }
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	debug.SetMemoryLimit(1 << 40)
	a := oneShotGC(none)
	if got := debug.SetMemoryLimit(-1); got != oneShotLimit {
		t.Fatalf("limit %d during a one-shot command, want %d", got, oneShotLimit)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GC percent %d during a one-shot command, want off (-1)", got)
	}
	b := oneShotGC(none)
	a()
	a() // twice is once
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("the first of two ended and the collector is back (%d) while the second runs", got)
	}
	b()
	if got := debug.SetGCPercent(percent); got != percent {
		t.Fatalf("GC percent %d after both ended, want %d as before", got, percent)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("limit %d after both ended, want it as before", got)
	}
	// A lower limit already set stays.
	debug.SetMemoryLimit(64 << 20)
	c := oneShotGC(none)
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Fatalf("limit %d, want the lower one already set", got)
	}
	c()
	// The user's GOGC wins.
	user := oneShotGC(func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	})
	if got := debug.SetGCPercent(percent); got != percent {
		t.Fatalf("GOGC set by the user, and the percent changed to %d", got)
	}
	user()
}
