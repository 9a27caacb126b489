package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/theme"
)

// contractApp is the loaded watch screen with the contract page open on
// the ladder's selection and filled by hand: its snapshot, a morning of
// trades with greeks (a block, a two-exchange sweep, a cancel) and the
// NBBO changes behind the chart.
func contractApp(t testing.TB) (*App, time.Time) {
	t.Helper()
	a, now := loadedApp(t, 3, 80)
	a.openContractPage(a.ws().Chain().SelectedOSI())
	p := a.cp()
	q := p.Query()
	snap := modeltest.SynthChain(1, 80, 1)
	for _, o := range snap.Options {
		if o.Option == p.OSI() {
			snap.Options = []api.OptionData{o}
			break
		}
	}
	snap.Bid, snap.Ask = api.Some(600.36), api.Some(600.38)
	o := &snap.Options[0]
	o.Bid, o.Ask, o.Mid, o.LastTradePrice, o.PrevDayClose = api.Some(2.08), api.Some(2.14), api.Some(2.11), api.Some(2.11), api.Some(1.95)
	if !p.ApplyQuote(feed.ContractQuoteMsg{Query: q, Chain: snap, At: now}) {
		t.Fatal("quote dropped")
	}
	var trades []api.OptionTradeWithGreeks
	var recs []api.TAQRecord
	for i := range 60 {
		at := api.NewTimeOfDay(9, 30, 0, 0) + api.TimeOfDay(i)*115_000
		mid := 2.0 + 0.4*math.Sin(float64(i)/9)
		bid, ask := math.Round((mid-0.03)*100)/100, math.Round((mid+0.03)*100)/100
		px := []float64{bid, ask, (bid + ask) / 2}[i%3]
		size := int64(1 + i%9)
		if i == 40 {
			size = 250 // a block
		}
		g := api.OptionTradeWithGreeks{
			IV: api.Some(0.18 + 0.02*math.Cos(float64(i)/7)), Delta: api.Some(0.52), Gamma: api.Some(0.03),
			Theta: api.Some(-0.4), Vega: api.Some(0.11),
			UnderlyingBid: api.Some(598.3 + mid), UnderlyingAsk: api.Some(598.32 + mid),
		}
		g.Trade = api.Trade{Size: size, Price: api.Some(math.Round(px*100) / 100), Time: at, SequenceNumber: int64(1000 + 2*i),
			ExchangeID: uint8(1 + i%5), NBBOBid: api.Some(bid), NBBOAsk: api.Some(ask)}
		if i == 50 {
			g.Flag = api.TradeCanceled
		}
		trades = append(trades, g)
		if i == 19 { // a sweep: bought at the ask on another exchange, next in sequence, 2 ms later
			s := g
			s.Trade.SequenceNumber++
			s.Trade.Time += 2
			s.Trade.ExchangeID = 9
			trades = append(trades, s)
		}
		var r api.TAQRecord
		r.Kind = api.KindQuote
		r.Quote.SequenceNumber, r.Quote.Time = int64(1+i), at-500
		r.Quote.NBBOBid, r.Quote.NBBOAsk = api.Some(bid), api.Some(ask)
		recs = append(recs, r)
	}
	if !p.ApplyTrades(feed.ContractTradesMsg{Query: q, Trades: trades, At: now}) {
		t.Fatal("trades dropped")
	}
	if !p.ApplyTAQ(feed.ContractTAQMsg{Query: q, Records: recs, At: now}) {
		t.Fatal("quotes dropped")
	}
	a.syncFeeds() // the page's feeds wanted: their intervals, for its cost line
	return a, now
}

// TestGoldenContractPage snapshots the page as the App composes it, at
// the sizes a trader uses, with and without colour. Regenerate with go
// test ./model -run Golden -update, and read the result with the escape
// codes stripped before committing it.
func TestGoldenContractPage(t *testing.T) {
	for _, tc := range []struct {
		w, h    int
		noColor bool
	}{{120, 40, false}, {80, 24, false}, {120, 40, true}} {
		name := fmt.Sprintf("%dx%d", tc.w, tc.h)
		if tc.noColor {
			name += "-nocolor"
		}
		t.Run(name, func(t *testing.T) {
			a, now := contractApp(t)
			a.resize(tc.w, tc.h)
			if tc.noColor {
				a.sh.Styles = theme.New(theme.Dark(), true)
			}
			out := a.drawAt(now)
			golden.RequireEqual(t, []byte(out))
			lines := strings.Split(out, "\n")
			if len(lines) != tc.h {
				t.Fatalf("%d lines", len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != tc.w {
					t.Fatalf("line %d is %d wide: %q", i, w, ansi.Strip(l))
				}
			}
			// The volume by hand: sizes 1..9 in turn, the block of 250 for
			// the 41st, the sweep's second print of 2, the canceled 6 out.
			vol := int64(2 + 250 - 6)
			for i := range 60 {
				if i != 40 {
					vol += int64(1 + i%9)
				}
			}
			plain := ansi.Strip(out)
			for _, want := range []string{a.cp().OSI(), "CALL", "Theo", "Time & Sales", "▲", "▼", fmt.Sprintf("Vol %d ", vol),
				"Blocks 1 (250)", "Sweeps 1", "◆", "pts a refresh", "esc back"} {
				if !strings.Contains(plain, want) {
					t.Errorf("the page lacks %q:\n%s", want, plain)
				}
			}
			if tc.h >= 40 && !strings.Contains(plain, "x 11:05:50") {
				t.Errorf("the canceled print is not marked:\n%s", plain)
			}
			if tc.noColor && (strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;")) {
				t.Error("NO_COLOR page carries colours")
			}
		})
	}
}

// BenchmarkContractPageFrame is one frame of the contract page at
// 120x40: header, summary and prints drawn, the chart reused (its data
// and the minute unchanged), as most frames are.
func BenchmarkContractPageFrame(b *testing.B) {
	a, now := contractApp(b)
	a.resize(120, 40)
	a.drawAt(now)
	b.ReportAllocs()
	for b.Loop() {
		a.drawAt(now)
	}
}

// BenchmarkContractChart is the chart drawn again with ntcharts, as after
// each page of trades or quotes.
func BenchmarkContractChart(b *testing.B) {
	a, now := contractApp(b)
	a.resize(120, 40)
	b.ReportAllocs()
	for b.Loop() {
		a.cp().Invalidate()
		a.drawAt(now)
	}
}
