package ui

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/theme"
	"chainwatch/vol"
)

// volFixture is a SPY-like surface at 600: six expiries from 0 to 90
// days, strikes 540..660 by 5, an equity skew (puts richer) with some
// smile, the term structure rising but for the earnings expiry (index 3),
// which is bumped; the 2-day expiry has no ATM bid (a dash).
func volFixture() VolData {
	day := api.NewDate(2026, 11, 20)
	spot := 600.0
	dtes := []int{0, 2, 7, 14, 30, 90}
	var exps []vol.Expiry
	for i, dte := range dtes {
		t := math.Max(float64(dte), 0.5) / 365
		base := 0.15 + 0.02*math.Sqrt(float64(dte)/90)
		if i == 3 {
			base += 0.04
		}
		e := vol.Expiry{Date: day.AddDays(dte), DTE: dte}
		for k := 540.0; k <= 660; k += 5 {
			m := math.Log(k / spot)
			iv := base - 0.25*m + 0.9*m*m
			sd := iv * math.Sqrt(t)
			d1 := (-m + sd*sd/2) / sd
			nd := 0.5 * math.Erfc(-d1/math.Sqrt2)
			call := spot*nd - k*0.5*math.Erfc(-(d1-sd)/math.Sqrt2)
			put := call - spot + k
			q := func(px, delta float64, n int64) vol.Quote {
				px = math.Max(px, 0.01)
				return vol.Quote{Bid: math.Max(px-0.02, 0), Ask: px + 0.02, Mid: math.NaN(), IV: iv, Delta: delta, Volume: n, OI: n * 10}
			}
			r := vol.Row{Strike: k, Call: q(call, nd, int64(1000-int(math.Abs(k-spot))*5)), Put: q(put, nd-1, int64(1300-int(math.Abs(k-spot))*6))}
			if i == 1 && k == 600 {
				r.Put.Bid = 0
			}
			e.Rows = append(e.Rows, r)
		}
		exps = append(exps, e)
	}
	figs := vol.ComputeAll(exps, spot)
	sel := 4
	lo, hi := vol.SmileWindow(exps[sel].Rows, spot, figs[sel].Move, 610)
	return VolData{
		Symbol: "SPY", Spot: spot, IV30: vol.IV30{Now: 18.42, Change: 0.61, ChangePct: 3.4},
		Figures: figs, Selected: sel, Earnings: EarningsIndex(figs, day.AddDays(10)),
		Smile: exps[sel].Rows[lo:hi], Cursor: 610,
		Term: TermCost{Points: 4, Every: 5 * time.Minute, Next: 2*time.Minute + 10*time.Second, Age: 170 * time.Second},
	}
}

func checkBlock(t *testing.T, what string, lines []string, w, h int) {
	t.Helper()
	if len(lines) != h {
		t.Fatalf("%s: %d lines, want %d", what, len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("%s: line %d is %d cells, want %d: %q", what, i, got, w, ansi.Strip(l))
		}
	}
}

// TestGoldenVolPage: the vol page at 80x24's and 160x48's room (the
// header and status bar take three lines), and without colour.
func TestGoldenVolPage(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
		st   *theme.Styles
	}{{"80x21", 80, 21, darkStyles}, {"160x45", 160, 45, darkStyles}, {"120x37-nocolor", 120, 37, noColorStyles}} {
		t.Run(c.name, func(t *testing.T) {
			d := volFixture()
			lines := VolPage(&d, c.w, c.h, c.st)
			checkBlock(t, c.name, lines, c.w, c.h)
			out := strings.Join(lines, "\n")
			golden.RequireEqual(t, []byte(out))
			if c.st.NoColor && (strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;")) {
				t.Error("NO_COLOR page carries colours")
			}
		})
	}
}

// TestGoldenVolPageEarnings: the vol page with the next report's event
// and straddle moves, at 80x24's and 160x48's room.
func TestGoldenVolPageEarnings(t *testing.T) {
	d := volFixture()
	day := api.NewDate(2026, 11, 20)
	im := vol.Implied{EarningsMove: vol.EarningsMove{Date: day.AddDays(9), When: api.AfterClose, Next: true, Expiry: day.AddDays(14), Move: 24.6, MovePct: 0.041},
		Before: day.AddDays(7), Event: 11.9, EventPct: 0.0198}
	d.Implied = &im
	d.Realized = []vol.EarningsMove{{Date: day.AddDays(-80), MovePct: 0.032}, {Date: day.AddDays(-170), MovePct: -0.051}}
	for _, c := range []struct {
		name string
		w, h int
	}{{"80x21", 80, 21}, {"160x45", 160, 45}} {
		t.Run(c.name, func(t *testing.T) {
			lines := VolPage(&d, c.w, c.h, darkStyles)
			checkBlock(t, c.name, lines, c.w, c.h)
			out := strings.Join(lines, "\n")
			golden.RequireEqual(t, []byte(out))
			// At 80 columns the title keeps the spot and IV30 first.
			if plain := ansi.Strip(out); c.w == 160 && !strings.Contains(plain, "±2.0% event, ±4.1% straddle") {
				t.Errorf("the page does not set the event move beside the straddle's:\n%s", plain)
			}
		})
	}
}

// TestVolPageNamesMissingReports: the title says how many of the last
// reports have no realized move and the backfill that stores them, where
// there is room.
func TestVolPageNamesMissingReports(t *testing.T) {
	d := volFixture()
	d.Missing = []api.EarningsEvent{{ReportDate: api.NewDate(2026, 7, 30)}, {ReportDate: api.NewDate(2026, 4, 30)}}
	d.BackfillDays = 143
	plain := ansi.Strip(strings.Join(VolPage(&d, 213, 45, darkStyles), "\n"))
	if !strings.Contains(plain, "2 reports lack closes: history backfill --days 143") {
		t.Errorf("the page does not name the missing reports:\n%s", plain[:400])
	}
}

// TestVolPageFits: every size from a sliver to a wall is exactly its
// size, stacked or side by side, in every smile mode and without data.
func TestVolPageFits(t *testing.T) {
	d := volFixture()
	for _, both := range []bool{false, true} {
		d.Both = both
		for _, sz := range [][2]int{{1, 1}, {20, 5}, {60, 21}, {80, 21}, {80, 45}, {100, 30}, {160, 45}, {240, 70}} {
			checkBlock(t, "page", VolPage(&d, sz[0], sz[1], darkStyles), sz[0], sz[1])
		}
	}
	empty := VolData{Symbol: "SPY", Message: "loading SPY…", Selected: -1, Earnings: -1}
	lines := VolPage(&empty, 80, 21, darkStyles)
	checkBlock(t, "loading", lines, 80, 21)
	if !strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "loading SPY…") {
		t.Error("the message is not shown")
	}
}

// TestVolPageReadsAsTheFigures: the table shows each expiry's figures
// as computed, a dash where there is no two-sided ATM market, the
// selected row marked ▶ and the earnings expiries E; the smile and the
// term structure carry their glyphs.
func TestVolPageReadsAsTheFigures(t *testing.T) {
	d := volFixture()
	plain := ansi.Strip(strings.Join(VolPage(&d, 160, 45, darkStyles), "\n"))
	f := d.Figures[4]
	row := "▶ " + fmtDate(f.Date) + " E" // 30 days: after the earnings on day 10
	if !strings.Contains(plain, row) {
		t.Fatalf("selected row %q missing:\n%s", row, plain)
	}
	for _, want := range []string{
		fmtPct(f.ATMIV, 1), string(appendMove(nil, f.Move)), string(appendMovePct(nil, f.MovePct)),
		fmtSigned(f.RR25*100, 1), fmtSigned(f.BF25*100, 1),
		"IV30 18.4% vs 17.8% prev close +0.61", "4 pts every 5m00s · next 2m10s", "all expiries 2m50s old",
		"● call", "○ put", "┊ spot", "◉ selected", "◆ earnings", "cursor 610",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("page lacks %q:\n%s", want, plain)
		}
	}
	if f.RR25 >= 0 {
		t.Errorf("the fixture's skew should make RR25 negative: %v", f.RR25)
	}
	// The 2-day expiry's ATM put has no bid: its ATM IV and move are dashes.
	two := d.Figures[1]
	var line string
	for _, l := range strings.Split(plain, "\n") {
		if strings.HasPrefix(l, "  "+fmtDate(two.Date)) {
			line = l
		}
	}
	if f := strings.Fields(line); len(f) < 6 || f[3] != "-" || f[4] != "-" || f[5] != "-" {
		t.Errorf("no two-sided ATM market should show dashes: %q", line)
	}
}

// TestStatusShowsTheNextFetchCost: the vol page's status bar says what
// its next fetch costs.
func TestStatusShowsTheNextFetchCost(t *testing.T) {
	s := StatusData{Spent: 8, PointsLeft: -1, NextFeed: "expiries", Next: 4*time.Minute + 12*time.Second, NextCost: 4}
	if out := ansi.Strip(Status(&s, 100, darkStyles)); !strings.Contains(out, "next expiries 4m12s (4 pts)") {
		t.Errorf("status %q", out)
	}
}

// BenchmarkVolPage draws the whole page at 160x45: cold, the two charts
// drawn (a new chain, another expiry), and cached, the frames that only
// move a countdown, where the charts are kept.
//
//	go test -run '^$' -bench VolPage -benchmem ./ui
func BenchmarkVolPage(b *testing.B) {
	b.Run("cold", func(b *testing.B) {
		d := volFixture()
		for b.Loop() {
			VolPage(&d, 160, 45, darkStyles)
		}
	})
	b.Run("cached", func(b *testing.B) {
		d := volFixture()
		d.Charts = &VolCharts{}
		VolPage(&d, 160, 45, darkStyles)
		for b.Loop() {
			d.Term.Next -= time.Second
			VolPage(&d, 160, 45, darkStyles)
		}
	})
}

// TestVolChartsKeptUntilTheyChange: a frame that changes only the
// countdown reuses the charts; a new IV or cursor draws them again.
func TestVolChartsKeptUntilTheyChange(t *testing.T) {
	d := volFixture()
	d.Charts = &VolCharts{}
	first := VolPage(&d, 120, 37, darkStyles)
	kept := d.Charts.smile
	d.Term.Next -= time.Second
	VolPage(&d, 120, 37, darkStyles)
	if &d.Charts.smile[0] != &kept[0] {
		t.Error("a countdown redrew the charts")
	}
	d.Smile[3].Put.IV += 0.05
	again := VolPage(&d, 120, 37, darkStyles)
	if &d.Charts.smile[0] == &kept[0] || strings.Join(again, "\n") == strings.Join(first, "\n") {
		t.Error("a new IV did not redraw the smile")
	}
	kept = d.Charts.smile
	d.Cursor = 620
	VolPage(&d, 120, 37, darkStyles)
	if &d.Charts.smile[0] == &kept[0] {
		t.Error("a new cursor did not redraw the smile")
	}
}
