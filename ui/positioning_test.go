package ui

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/positioning"
	"chainwatch/pricing"
	"chainwatch/theme"
)

// posFixture is a view of a small chain: two expiries of the strikes 90
// to 110, more put open interest below 100 and more call above.
func posFixture(spot float64) PositioningView {
	day := api.NewDate(2026, 11, 20)
	snap := &api.SymbolWithOptions{}
	snap.Symbol, snap.LastTradePrice, snap.Timestamp = "XYZ", api.Some(spot), api.NewTimeOfDay(11, 30, 0, 0)
	for _, d := range []int{0, 7} {
		for k := 90.0; k <= 110; k++ {
			for _, typ := range []api.OptionType{api.Call, api.Put} {
				oi := 100 + 50*max(k-100, 0)
				if typ == api.Put {
					oi = 100 + 80*max(100-k, 0)
				}
				// The gamma the chain's model gives (none without a spot).
				var gamma api.Float
				if spot > 0 {
					p := pricing.Params{S: spot, K: k, T: market.YearsTo(day.AddDays(d), snap.Timestamp.On(day)), Vol: 0.3, Call: typ == api.Call, American: true}
					_, g := pricing.Compute(p)
					gamma = api.Some(g.Gamma)
				}
				snap.Options = append(snap.Options, api.OptionData{Root: "XYZ", Expiry: day.AddDays(d), Strike: k, OptionType: typ,
					OpenInterest: api.Some(int64(oi)), Volume: api.Some(int64(k)), IV: api.Some(0.3), Gamma: gamma})
			}
		}
	}
	c := positioning.FromSnapshot(snap, day, time.Time{})
	sel := positioning.Range{Kind: positioning.AllExpiries}.Select(c)
	f := positioning.Compute(c, sel)
	flip := positioning.NewCurve(c, sel).ZeroGamma(c.Spot, positioning.ZeroGammaGrid)
	return PositioningView{Symbol: "XYZ", Day: day, Range: "all", Spot: c.Spot, AsOf: snap.Timestamp, Rows: f.Rows, Center: 10,
		Figs: &f, Flip: flip, Chain: c, Term: TermCost{Points: 4, Every: 5 * time.Minute, Next: time.Minute, Age: 10 * time.Second}, Ladder: true}
}

// TestPositioningFillsItsSize: every line of the page is exactly its
// width and there are exactly its height of them, at every size from
// 80x23 (the 80x24 frame less its status bar) up, with a spot or
// without, scrolled to either end, or saying what it waits for; the
// spot and the zero-gamma level are lines where they fall, and a
// strike's marks are on its row.
func TestPositioningFillsItsSize(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	views := map[string]PositioningView{"spot": posFixture(100.4), "no spot": posFixture(math.NaN())}
	top, bottom, msg := posFixture(100.4), posFixture(100.4), posFixture(100.4)
	top.Center, bottom.Center, msg.Message = 0, 20, "loading the whole chain of XYZ…"
	views["top"], views["bottom"], views["message"] = top, bottom, msg
	for name, v := range views {
		for _, w := range []int{80, 99, 119, 120, 160, 213} {
			for _, h := range []int{23, 30, 47, 60} {
				lines := Positioning(&v, w, h, st)
				if len(lines) != h {
					t.Fatalf("%s %dx%d: %d lines", name, w, h, len(lines))
				}
				for i, l := range lines {
					if got := ansi.StringWidth(l); got != w {
						t.Fatalf("%s %dx%d: line %d is %d cells: %q", name, w, h, i, got, ansi.Strip(l))
					}
				}
			}
		}
	}
	v := views["spot"]
	plain := ansi.Strip(strings.Join(Positioning(&v, 160, 47, st), "\n"))
	for _, want := range []string{"spot 100.40", "zero gamma ", "XYZ positioning  all", "2 expiries Nov20-Nov27", "held: 0 pts",
		"Call wall         110 (1200 OI)", "Put wall          90 (1800 OI)", positioning.Dealers, "Nov20 0d", "Nov27 7d"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the page lacks %q:\n%s", want, plain)
		}
	}
	if z, sp := strings.Index(plain, "zero gamma 100.30"), strings.Index(plain, " spot 100.40 ─"); z < 0 || sp < 0 || z > sp {
		t.Errorf("the zero-gamma line (100.30) is not above the spot's (100.40):\n%s", plain)
	}
	for _, l := range strings.Split(plain, "\n") {
		if strings.Contains(l, "  110  ") && !strings.Contains(l, "CW") || strings.Contains(l, "  90  ") && !strings.Contains(l, "PW") {
			t.Errorf("a wall's row lacks its mark: %q", l)
		}
	}
	if m := ansi.Strip(strings.Join(Positioning(&msg, 80, 23, st), "\n")); !strings.Contains(m, "loading the whole chain of XYZ…") {
		t.Errorf("the message is not shown:\n%s", m)
	}
}

// TestPositioningTitleYears: a range whose expiries run past the year
// of the day shown names the years ("Nov24-Dec19" read as four weeks for
// a range ending in 2031); one within the year keeps the short form.
func TestPositioningTitleYears(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	v := posFixture(100.4)
	if got := ansi.Strip(Positioning(&v, 160, 30, st)[0]); !strings.Contains(got, "2 expiries Nov20-Nov27 ") {
		t.Errorf("a range within the year: %q", got)
	}
	c := *v.Chain
	c.Exps = append([]positioning.Expiry(nil), c.Exps...)
	c.Exps[len(c.Exps)-1].Date = api.NewDate(2031, 12, 19)
	v.Chain = &c
	if got := ansi.Strip(Positioning(&v, 160, 30, st)[0]); !strings.Contains(got, "2 expiries Nov20 2026-Dec19 2031") {
		t.Errorf("a range ending in 2031: %q", got)
	}
}

// TestPositioningBars: a bar's cells follow its open interest on the
// scale of the largest in sight, at least one for anything held.
func TestPositioningBars(t *testing.T) {
	for _, tc := range []struct {
		v, scale int64
		w, want  int
	}{{100, 100, 30, 30}, {50, 100, 30, 15}, {1, 1000, 30, 1}, {0, 1000, 30, 0}, {10, 0, 30, 0}} {
		if got := barCells(tc.v, tc.scale, tc.w); got != tc.want {
			t.Errorf("barCells(%d, %d, %d) = %d, want %d", tc.v, tc.scale, tc.w, got, tc.want)
		}
	}
	for v, want := range map[float64]string{1.234e9: "+$1.2B", -870.1e6: "-$870.1M", 0.2: "$0", math.NaN(): "-"} {
		if got := fmtGEX(v); got != want {
			t.Errorf("fmtGEX(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestPositioningSaysEstimatedGamma: the figures say how many gammas
// the model estimated, beside the bars (wide) and above them (narrow),
// and the exposure shown follows the view's greek with its unit.
func TestPositioningSaysEstimatedGamma(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	v := posFixture(100.4)
	f := *v.Figs
	f.GammaEstimated = 7
	v.Figs = &f
	for _, w := range []int{80, 160} {
		plain := ansi.Strip(strings.Join(Positioning(&v, w, 30, st), "\n"))
		if !strings.Contains(plain, "7 gammas estimated") {
			t.Errorf("%d columns: the page does not say 7 gammas were estimated:\n%s", w, plain)
		}
	}
	v.Greek = positioning.Charm
	plain := ansi.Strip(strings.Join(Positioning(&v, 160, 30, st), "\n"))
	for _, want := range []string{"CEX per day", " CEX ", "CEX > 0: dealers sell as time passes"} {
		if !strings.Contains(plain, want) {
			t.Errorf("charm shown: the page lacks %q:\n%s", want, plain)
		}
	}
}
