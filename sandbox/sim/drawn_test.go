package sim

import (
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

// TestDayDrawnThroughIsTheDaysStart: a day drawn through a time is the
// whole day's trades through that time, field for field, for an index, a
// fund and two stocks, on a monthly expiry and an ordinary day, from
// before the open to the close.
func TestDayDrawnThroughIsTheDaysStart(t *testing.T) {
	m := at(2026, time.November, 24, 17, 0)
	for _, day := range []api.Date{20261120, 20261124} {
		ts := []api.TimeOfDay{market.SessionOpen - 1, market.SessionOpen, market.SessionOpen + 1,
			api.NewTimeOfDay(9, 45, 0, 0), api.NewTimeOfDay(11, 0, 0, 0), api.NewTimeOfDay(13, 17, 5, 123),
			market.SessionClose(day) - 1, market.SessionClose(day)}
		for _, sym := range []string{"SPX", "SPY", "AAPL", "QCOM"} {
			b := mustBook(t, m, sym, day)
			whole := generate(b)
			if len(whole.trades) < 1000 {
				t.Fatalf("%s %v: %d trades in the day", sym, day, len(whole.trades))
			}
			for _, until := range ts {
				part := generateThrough(b, until)
				want := whole.trades[:whole.count(until)]
				if part.until != until || !slices.Equal(part.trades, want) {
					t.Fatalf("%s %v through %v: %d trades, the day has %d by then (or they differ)", sym, day, until, len(part.trades), len(want))
				}
			}
		}
	}
}

// TestDayDrawnAsRead: a live day is drawn a stretch at a time as it is
// read, the priced trades carried over, and a reader of the whole day
// (the next day's open interest) never takes a shorter day for it.
func TestDayDrawnAsRead(t *testing.T) {
	const day api.Date = 20261124
	m := at(2026, time.November, 24, 11, 0)
	b := mustBook(t, m, "SPY", day)
	first, ok := m.tradeDayThrough(b, api.NewTimeOfDay(10, 0, 0, 0))
	if !ok {
		t.Fatal("no trades")
	}
	if close := market.SessionClose(day); first.sk.until >= close || first.sk.until < api.NewTimeOfDay(10, 0, 0, 0) {
		t.Fatalf("drawn through %v for a read at 10:00", first.sk.until)
	}
	n := first.upTo(api.NewTimeOfDay(10, 0, 0, 0))
	later, _ := m.tradeDayThrough(b, api.NewTimeOfDay(11, 0, 0, 0))
	if later == first || later.sk.until < api.NewTimeOfDay(11, 0, 0, 0) {
		t.Fatalf("a read at 11:00 got the day drawn through %v", later.sk.until)
	}
	if got := int(later.priced.Load()); got != n {
		t.Fatalf("%d trades priced carried over, want %d", got, n)
	}
	fresh := priceTrades(b, generate(b))
	m2 := later.upTo(api.NewTimeOfDay(11, 0, 0, 0))
	fresh.priceFor(m2, Expiries{})
	for i := range m2 {
		if later.trade(i) != fresh.trade(i) {
			t.Fatalf("trade %d differs from the whole day's", i)
		}
	}
	if again, _ := m.tradeDayThrough(b, api.NewTimeOfDay(10, 30, 0, 0)); again != later {
		t.Error("a read at 10:30 drew the day again")
	}
	st := m.state(mustBook(t, m, "SPY", 20261125))
	if st.prev == nil {
		t.Fatal("no previous day")
	}
	oi, _ := st.openInterest(m)
	vol := generate(b).volumes(b.n)
	matched := 0
	matchContracts(b, st.b, nil, func(pi, ci int) {
		s, k, put := st.b.contract(ci)
		if base := st.b.baseOI(s, k, put); oi[ci] != base+vol[pi]/2 {
			t.Fatalf("contract %d: open interest %d, want %d + %d/2 (the whole day's volume)", ci, oi[ci], base, vol[pi])
		}
		matched++
	})
	if matched < 1000 {
		t.Fatalf("%d contracts listed both days", matched)
	}
}

// TestSessionQuantilesInOnePass: the quantiles of ascending shares found
// in one pass over the table are those found by searching it for each,
// at the table's own entries and between them, and they ascend.
func TestSessionQuantilesInOnePass(t *testing.T) {
	var rs []float64
	for i := range shareTable {
		rs = append(rs, shareTable[i], math.Nextafter(shareTable[i], 2), shareTable[i]+1e-7)
	}
	rs = append(rs, 0, 1e-300, 0.5, 1-1e-16)
	slices.Sort(rs)
	got := slices.Clone(rs)
	sessionQuantiles(got)
	for j, r := range rs {
		if want := quantileAt(r, sort.SearchFloat64s(shareTable[:], r)); got[j] != want {
			t.Fatalf("share %v: %v in one pass, %v searched", r, got[j], want)
		}
		if j > 0 && got[j] < got[j-1] {
			t.Fatalf("share %v: %v below the share before's %v", r, got[j], got[j-1])
		}
	}
}

// TestSinceOnADayDrawnInPart: a window's first trade on a day drawn
// through the moment read is the whole day's, and a window starting after
// the moment (a min_time later than now) starts past the last trade.
func TestSinceOnADayDrawnInPart(t *testing.T) {
	const day api.Date = 20261124
	m := at(2026, time.November, 24, 11, 0)
	mo := Moment{Date: day, Time: api.NewTimeOfDay(11, 0, 0, 0), Requested: day}
	tr, ok := m.OptionTrades("SPY", mo)
	if !ok || tr.Len() < 1000 {
		t.Fatalf("SPY trades by 11:00: %v, %d", ok, tr.Len())
	}
	whole := generate(mustBook(t, m, "SPY", day))
	for _, from := range []api.TimeOfDay{0, market.SessionOpen, api.NewTimeOfDay(10, 0, 0, 0), mo.Time, mo.Time + 1,
		api.NewTimeOfDay(15, 0, 0, 0), market.SessionClose(day) + 1} {
		want := min(whole.count(from-1), tr.Len())
		if from <= 0 {
			want = 0
		}
		if got := tr.Since(from); got != want {
			t.Errorf("Since(%v) = %d, want %d", from, got, want)
		}
	}
}
