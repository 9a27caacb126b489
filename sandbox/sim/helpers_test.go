package sim

import (
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox/market"
)

// at returns a market whose clock reads the given Eastern wall time.
func at(y int, mo time.Month, d, h, mi int) *Market {
	now := time.Date(y, mo, d, h, mi, 0, 0, api.Eastern)
	return New(Config{Now: func() time.Time { return now }})
}

// noon is a mid-session moment on the anchor day (a Friday with a monthly
// expiry), as a live request sees it.
func noon(t testing.TB) (*Market, Moment) {
	t.Helper()
	m := at(2026, time.November, 20, 12, 0)
	mo, err := m.Moment(api.Live, 20261120)
	if err != nil {
		t.Fatal(err)
	}
	return m, mo
}

func mustSec(t testing.TB, m *Market, sym string) *market.Security {
	t.Helper()
	s, ok := m.u.Lookup(sym)
	if !ok {
		t.Fatalf("%s not in the universe", sym)
	}
	return s
}

func mustBook(t testing.TB, m *Market, sym string, d api.Date) *book {
	t.Helper()
	b, ok := m.book(mustSec(t, m, sym), d)
	if !ok {
		t.Fatalf("no book for %s on %v", sym, d)
	}
	return b
}

// optionTrades is every record of m.OptionTrades, built.
func optionTrades(m *Market, underlying string, at Moment) ([]api.OptionTrade, bool) {
	ts, ok := m.OptionTrades(underlying, at)
	out := make([]api.OptionTrade, ts.Len())
	for i := range out {
		out[i] = ts.At(i)
	}
	return out, ok
}
