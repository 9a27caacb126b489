package market

import (
	"slices"
	"testing"
)

// TestListingKeepsStrikes walks the trading days of autumn 2026, where the
// simulated SPY falls several dollars within days, and checks that every
// strike an expiry listed on one day is still listed on the next, for
// SPY, SPX, AAPL and VIX. It also checks the walk meets a fall that a
// window around the new close alone would not cover (the defect: Dec18
// C711 vanished when SPY fell), so the check cannot pass vacuously.
func TestListingKeepsStrikes(t *testing.T) {
	u := Default()
	falls := 0
	for _, sym := range []string{"SPY", "SPX", "AAPL", "VIX"} {
		s := lookup(t, u, sym)
		m := u.model(s)
		prev := u.Series(s, 20261001)
		for n, i := nextTrading(dayNum(20261001)), 0; n >= 0 && n <= dayNum(20261127) && i < 60; n, i = nextTrading(n), i+1 {
			d := dateOf(n)
			cur := u.Series(s, d)
			for _, p := range prev {
				j := slices.IndexFunc(cur, func(c Series) bool { return c.Root == p.Root && c.Expiry == p.Expiry })
				if j < 0 {
					if p.Expiry >= d && !(p.AMSettled && p.Expiry == d) {
						t.Errorf("%s %s %v listed before %v, gone on it", sym, p.Root, p.Expiry, d)
					}
					continue
				}
				for _, k := range p.Strikes {
					if _, ok := slices.BinarySearch(cur[j].Strikes, k); !ok {
						t.Errorf("%s %s %v: strike %v listed before %v, gone on it", sym, p.Root, p.Expiry, k, d)
					}
				}
				// A fall: the window of the day alone lacks a strike
				// listed the day before.
				r := &m.specs[slices.IndexFunc(m.specs, func(r rootSpec) bool { return r.root == p.Root })]
				yc, dc := u.Close(s, dateOf(prevTrading(n))), u.Close(s, dateOf(prevTrading(prevTrading(n))))
				if sym == "SPY" && dc-yc >= 3 {
					alone := r.grid.strikes(yc, max(s.Vol, u.VolLevel(s, dateOf(prevTrading(n)))), float64(dayNum(p.Expiry)-n)/365)
					if slices.ContainsFunc(p.Strikes, func(k float64) bool { _, ok := slices.BinarySearch(alone, k); return !ok }) {
						falls++
					}
				}
			}
			prev = cur
		}
	}
	if falls == 0 {
		t.Error("no SPY fall of $3 in the walk dropped a strike from the day's window: the test checks nothing")
	}
}

// TestListingDeterministic: a day's listing does not depend on what was
// asked before (a fresh universe, a past day first, or the day twice).
func TestListingDeterministic(t *testing.T) {
	a, b := newUniverse(4), newUniverse(4)
	sa, sb := lookup(t, a, "SPY"), lookup(t, b, "SPY")
	want := a.Series(sa, 20261127)
	b.Series(sb, 20250613)
	b.Series(sb, 20261120)
	got := b.Series(sb, 20261127)
	if len(got) != len(want) {
		t.Fatalf("%d series, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Expiry != want[i].Expiry || !slices.Equal(got[i].Strikes, want[i].Strikes) {
			t.Fatalf("%v: strikes differ by what was asked first", want[i].Expiry)
		}
	}
	// The trading day before a day asked (as a chain asks for its open
	// interest), SPX's many expiries too: as a fresh universe lists it.
	for _, sym := range []string{"SPY", "SPX"} {
		c := newUniverse(4)
		b.Series(lookup(t, b, sym), 20261127)
		got, want := b.Series(lookup(t, b, sym), 20261125), c.Series(lookup(t, c, sym), 20261125)
		if len(got) != len(want) || len(want) < 20 {
			t.Fatalf("%s: %d series the day before, want %d", sym, len(got), len(want))
		}
		for i := range want {
			if got[i].Expiry != want[i].Expiry || !slices.Equal(got[i].Strikes, want[i].Strikes) {
				t.Fatalf("%s %v: strikes of the day before differ from a fresh listing's", sym, want[i].Expiry)
			}
		}
	}
}
