package history_test

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"chainwatch/api"
	"chainwatch/history"
	"chainwatch/vol"
)

// fill50 is a store of 50 symbols x 252 sessions before today, each
// session one KeepQuotes of all 50 (as a backfill stores them), with
// every field a historical answer carries.
func fill50(tb testing.TB) (*history.Store, []string, api.Date) {
	tb.Helper()
	st, err := history.Open(ctx, filepath.Join(tb.TempDir(), "h.db"), "sandbox")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	syms := make([]string, 50)
	for i := range syms {
		syms[i] = fmt.Sprintf("S%02d", i)
	}
	today := api.NewDate(2026, 11, 20)
	for k, d := range history.SessionsBefore(today, 252) {
		got := make([]api.Symbol, len(syms))
		for i, s := range syms {
			p := 100 + float64(i) + 10*math.Sin(float64(k+i)/7)
			u := api.Underlying{Symbol: s, Timestamp: api.NewTimeOfDay(16, 0, 0, 0),
				LastTradePrice: api.Some(p), LastTradeSize: api.Some[int64](100), Bid: api.Some(p - 0.01), Ask: api.Some(p + 0.01),
				BidSize: api.Some[int64](300), AskSize: api.Some[int64](500), Mid: api.Some(p),
				Open: api.Some(p - 1.37), High: api.Some(p + 2.11), Low: api.Some(p - 2.93), Close: api.Some(p),
				PrevDayClose: api.Some(p - 0.42), Volume: api.Some(int64(12_345_678 + k)),
				IV30: api.Some(20 + 5*math.Cos(float64(k)/11+float64(i))), IV30Change: api.Some(-0.31), IV30ChangePercent: api.Some(-1.52),
				SeqNo: api.Some(int64(987_654 + k))}
			got[i] = api.Symbol{Underlying: u}
		}
		if err := st.KeepQuotes(ctx, d, syms, got); err != nil {
			tb.Fatal(err)
		}
	}
	st.Checkpoint()
	return st, syms, today
}

// The store of 50 symbols x 252 sessions fits in 5 MB (issue 32, item 7).
func TestStoreOf50SymbolsAYear(t *testing.T) {
	st, _, _ := fill50(t)
	if n := history.Size(st.Path()); n > 5<<20 {
		t.Errorf("50 symbols x 252 sessions take %d bytes, over 5 MB", n)
	}
}

// BenchmarkFigures50 is IV rank, IV percentile and HV30 of 50 symbols
// read from the database, as the watchlist reads them on each refresh.
//
//	go test -run '^$' -bench 'Figures50|StoreSize' -benchmem ./history
func BenchmarkFigures50(b *testing.B) {
	st, syms, today := fill50(b)
	b.ResetTimer()
	cur := make(map[string]float64, len(syms))
	for _, s := range syms {
		cur[s] = 22
	}
	for range b.N {
		stats, err := st.Stats(ctx, today, cur)
		if err != nil || len(stats) != 50 {
			b.Fatalf("%d symbols, %v", len(stats), err)
		}
		for s, ps := range stats {
			if p := vol.FiguresOf(cur[s], ps); ps.N != 251 || math.IsNaN(p.IVRank) || math.IsNaN(p.HV30) {
				b.Fatalf("%s: %+v from %+v", s, p, ps)
			}
		}
	}
}

// BenchmarkStoreSize reports the file of 50 symbols x 252 sessions.
func BenchmarkStoreSize(b *testing.B) {
	var n int64
	for range b.N {
		st, _, _ := fill50(b)
		n = history.Size(st.Path())
	}
	b.ReportMetric(float64(n)/(1<<20), "MB")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkPastChain is a past day's SPY chain (one expiry window) asked
// of the sandbox over loopback HTTP, and answered from the store.
//
//	go test -run '^$' -bench PastChain -benchmem ./history
func BenchmarkPastChain(b *testing.B) {
	p := api.OptionQuotesParams{Symbol: "SPY", Date: wed.String(), MinExpiry: "2026-11-20", MaxExpiry: "2026-12-18"}
	b.Run("sandbox", func(b *testing.B) {
		r := newRig(b)
		plain := r.newClient(b, nil)
		for range b.N {
			if _, _, err := plain.OptionAndUnderlyingQuotes(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("store", func(b *testing.B) {
		r := newRig(b)
		if _, _, err := r.client.OptionAndUnderlyingQuotes(ctx, p); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if _, resp, err := r.client.OptionAndUnderlyingQuotes(ctx, p); err != nil || !resp.FromHistory {
				b.Fatal(resp, err)
			}
		}
	})
}
