package model

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// loadedApp is a watch screen at 160x48 holding a chain of nExp x
// nStrikes x 2 contracts (applied twice, so cells flash), a tape and a
// calendar, without a network: what View draws on a busy second.
func loadedApp(tb testing.TB, nExp, nStrikes int) (*App, time.Time) {
	tb.Helper()
	now := testNow
	a := New(offline(tb, Config{Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return now }, Theme: "dark"}))
	a.resize(160, 48)
	for tick := range 2 {
		if !a.ws().Chain().Apply(feed.ChainMsg{Query: a.q, Chain: modeltest.SynthChain(nExp, nStrikes, tick), At: now}) {
			tb.Fatal("snapshot dropped")
		}
	}
	if !a.ws().Tape().Apply(feed.TapeMsg{Query: a.q, Trades: modeltest.SynthTrades(1, 2000), At: now}) {
		tb.Fatal("trades dropped")
	}
	ev := []api.CalendarEvent{
		{Kind: api.KindDividend, Dividend: api.DividendsEvent{ExDividendDate: modeltest.SynthDay.AddDays(20), PaymentDate: modeltest.SynthDay.AddDays(50), Dividend: api.Some(1.98), UnderlyingSymbol: "SPY"}},
		{Kind: api.KindDividend, Dividend: api.DividendsEvent{ExDividendDate: modeltest.SynthDay.AddDays(-70), PaymentDate: modeltest.SynthDay.AddDays(-30), Dividend: api.Some(2.01), UnderlyingSymbol: "SPY"}},
	}
	a.ws().Calendar().Apply(feed.CalendarMsg{Query: a.q, Events: ev, At: now})
	return a, now
}

// TestFrameFillsTheTerminal: the composed frame is exactly the
// terminal's size, whatever the chain's size.
func TestFrameFillsTheTerminal(t *testing.T) {
	for _, n := range []int{100, 10000} {
		a, now := loadedApp(t, max(n/500, 1), min(n/2, 250))
		for _, sz := range [][2]int{{160, 48}, {80, 24}, {120, 40}, {100, 30}} {
			a.resize(sz[0], sz[1])
			lines := splitLines(a.drawAt(now))
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d: %d lines", sz[0], sz[1], len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Fatalf("%dx%d: line %d is %d wide: %q", sz[0], sz[1], i, w, ansi.Strip(l))
				}
			}
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// BenchmarkFrame160x48 draws the whole watch screen (header, tabs, ladder,
// details, tape, calendar, status) at 160x48 with every visible cell
// flashing. The 20,000-contract chain must cost no more than the
// 200-contract one, and the frame must stay under a quarter of
// bubble-table's View of the same 40 rows (BenchmarkBubbleTableView40 in
// package ui).
func BenchmarkFrame160x48(b *testing.B) {
	for _, c := range []struct {
		name           string
		nExp, nStrikes int
	}{{"200", 1, 100}, {"20000", 40, 250}} {
		b.Run(c.name, func(b *testing.B) {
			a, now := loadedApp(b, c.nExp, c.nStrikes)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = a.drawAt(now)
			}
		})
	}
}
