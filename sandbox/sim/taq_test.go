package sim

import (
	"testing"

	"chainwatch/api"
)

// TestTAQ checks an option's and a stock's trades and quotes: time order,
// the stream's sequence numbers, the flag bits against the NBBO, and that a
// narrow window shows exactly the records of a wide one.
func TestTAQ(t *testing.T) {
	m, mo := noon(t)
	trades, _ := optionTrades(m, "SPY", mo)
	counts := map[string]int{}
	osi := ""
	for _, tr := range trades {
		if counts[tr.Security.V]++; osi == "" || counts[tr.Security.V] > counts[osi] {
			osi = tr.Security.V
		}
	}
	b, ci, ok := m.contractOf(mustOSI(t, osi), mo.Date)
	if !ok {
		t.Fatal(osi, "not listed")
	}
	for _, sym := range []string{osi, "AAPL"} {
		t.Run(sym, func(t *testing.T) {
			from, to := api.NewTimeOfDay(9, 30, 0, 0), api.NewTimeOfDay(16, 0, 0, 0)
			all, ok := m.TradesAndQuotes(sym, mo, from, to)
			if !ok || len(all) == 0 {
				t.Fatalf("no records (%v)", ok)
			}
			var nt int
			for i, r := range all {
				if r.SequenceNumber() != int64(i+1) || i > 0 && r.Time() < all[i-1].Time() || r.Time() > mo.Time {
					t.Fatalf("record %d: seq %d at %v", i, r.SequenceNumber(), r.Time())
				}
				if r.Kind == api.KindTrade {
					nt++
					continue
				}
				q := r.Quote
				if (r.Kind == api.KindOptionQuote) != (sym == osi) || (sym == osi) != q.UnderlyingBid.Valid {
					t.Fatalf("record %d: kind %v underlying %v", i, r.Kind, q.UnderlyingBid)
				}
				if q.NBBOBid.V >= q.NBBOAsk.V {
					t.Fatalf("record %d: NBBO %v/%v locked or crossed", i, q.NBBOBid.V, q.NBBOAsk.V)
				}
				if sym == osi {
					sec := q.Time - q.Time%1000
					c := b.at(sec)
					want, _, _, _, _ := c.contractQuote(ci)
					if cents(q.NBBOBid.V) != want.bid || cents(q.NBBOAsk.V) != want.ask {
						t.Fatalf("record %d: NBBO %v/%v, the chain's quote %d/%d", i, q.NBBOBid.V, q.NBBOAsk.V, want.bid, want.ask)
					}
					// Its sizes are the chain's too, so they move with its
					// prices (issue 30: they stood still while prices moved).
					if q.NBBOBidSize.V != want.bidSz || q.NBBOAskSize.V != want.askSz {
						t.Fatalf("record %d: NBBO sizes %d/%d, the chain's quote %d/%d", i, q.NBBOBidSize.V, q.NBBOAskSize.V, want.bidSz, want.askSz)
					}
					if q.BidSize.V > q.NBBOBidSize.V || q.AskSize.V > q.NBBOAskSize.V {
						t.Fatalf("record %d: an exchange's sizes %d/%d above the NBBO's %d/%d", i, q.BidSize.V, q.AskSize.V, q.NBBOBidSize.V, q.NBBOAskSize.V)
					}
				}
				if q.Bid.V > q.NBBOBid.V || q.Ask.V < q.NBBOAsk.V {
					t.Fatalf("record %d: quote %v/%v outside the NBBO %v/%v", i, q.Bid.V, q.Ask.V, q.NBBOBid.V, q.NBBOAsk.V)
				}
				wantFlag := api.QuoteFlag(0)
				if q.Bid.V == q.NBBOBid.V {
					wantFlag |= api.NBBOBestBid
				}
				if q.Ask.V == q.NBBOAsk.V {
					wantFlag |= api.NBBOBestAsk
				}
				if q.Flag != wantFlag || q.BestBidExchange == 0 || q.BestAskExchange == 0 {
					t.Fatalf("record %d: flag %d, want %d; best %d/%d", i, q.Flag, wantFlag, q.BestBidExchange, q.BestAskExchange)
				}
			}
			if sym == osi && nt != counts[osi] {
				t.Errorf("%d trades in trades-and-quotes, %d in option-trades", nt, counts[osi])
			}
			if len(all) > 40_000 {
				t.Errorf("%d records before noon", len(all))
			}
			w0, w1 := api.NewTimeOfDay(10, 15, 30, 250), api.NewTimeOfDay(10, 17, 0, 0)
			part, _ := m.TradesAndQuotes(sym, mo, w0, w1)
			var want []api.TAQRecord
			for _, r := range all {
				if r.Time() >= w0 && r.Time() <= w1 {
					want = append(want, r)
				}
			}
			if len(part) == 0 || len(part) != len(want) {
				t.Fatalf("window has %d records, want %d", len(part), len(want))
			}
			for i := range part {
				if part[i] != want[i] {
					t.Fatalf("window record %d differs", i)
				}
			}
		})
	}
	if _, ok := m.TradesAndQuotes("spy261120c00600000", mo, 0, mo.Time); ok {
		t.Error("a non-canonical OSI symbol was accepted")
	}
	if _, ok := m.TradesAndQuotes("NOSUCH", mo, 0, mo.Time); ok {
		t.Error("an unknown symbol was accepted")
	}
}
