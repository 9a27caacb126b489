package ui

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
)

// chartFixture is a morning of a contract, as the contract page's golden
// test has it: the mid swinging on a sine from 9:30, a print on every
// quote at the bid, the ask or between in turn, the IV on a cosine.
func chartFixture() ChartData {
	d := ChartData{From: api.NewTimeOfDay(9, 30, 0, 0)}
	for i := range 60 {
		at := api.NewTimeOfDay(9, 30, 0, 0) + api.TimeOfDay(i)*115_000
		mid := 2.0 + 0.4*math.Sin(float64(i)/9)
		bid, ask := math.Round((mid-0.03)*100)/100, math.Round((mid+0.03)*100)/100
		d.Mid = append(d.Mid, ChartPoint{T: at - 500, V: (bid + ask) / 2})
		px := []float64{bid, ask, (bid + ask) / 2}[i%3]
		side := []api.TradeAt{api.OnBid, api.OnAsk, api.MidMarket}[i%3]
		d.Trades = append(d.Trades, ChartTrade{T: at, Price: px, IV: 0.18 + 0.02*math.Cos(float64(i)/7), At: side})
		d.To = at + 60_000
	}
	return d
}

// TestChartReadsAtEverySize: exactly width x height cells from a sliver
// to a wall, the marks, both axes' labels and the legend where there is
// room, a message where there is not.
func TestChartReadsAtEverySize(t *testing.T) {
	d := chartFixture()
	for _, st := range [...]*struct{ name string }{{"dark"}, {"nocolor"}} {
		styles := darkStyles
		if st.name == "nocolor" {
			styles = noColorStyles
		}
		for w := 0; w <= 130; w += 7 {
			for h := 0; h <= 30; h += 3 {
				lines := Chart(&d, w, h, styles)
				checkBlock(t, st.name, lines, w, h)
			}
		}
	}
	plain := ansi.Strip(strings.Join(Chart(&d, 80, 12, noColorStyles), "\n"))
	for _, want := range []string{"▲", "▼", "◆", "·", "09:30", "%", "▲ bought", "▼ sold", "IV (right axis)"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the chart lacks %q:\n%s", want, plain)
		}
	}
	for _, l := range strings.Split(plain, "\n") {
		if strings.Contains(l, "09:30") && strings.Count(l, ":") < 3 {
			t.Errorf("the time axis has too few labels: %q", l)
		}
	}
	if small := ansi.Strip(strings.Join(Chart(&d, 20, 12, darkStyles), "\n")); !strings.Contains(small, "no") {
		t.Errorf("a chart with no room says nothing:\n%s", small)
	}
}

// TestChartIVAxisOnTheRight: the IV labels end lines of the plot, the
// highest on top, each a different value: a steady IV (15.8% all
// morning, a hundredth either way) read "15.8%" on every labelled line
// of a tall chart before the labels became round values each on its own
// line.
func TestChartIVAxisOnTheRight(t *testing.T) {
	steady := chartFixture()
	for i := range steady.Trades {
		steady.Trades[i].IV = 0.158 + 0.0001*math.Sin(float64(i))
	}
	for _, tc := range []struct {
		name string
		d    ChartData
		w, h int
	}{{"swinging", chartFixture(), 90, 16}, {"steady", steady, 90, 16}, {"steady tall", steady, 100, 44}} {
		lines := Chart(&tc.d, tc.w, tc.h, noColorStyles)
		var ivs []float64
		seen := map[string]bool{}
		for _, l := range lines[:len(lines)-1] {
			l = ansi.Strip(l)
			if !strings.HasSuffix(l, "%") {
				continue
			}
			f := strings.Fields(l)
			label := f[len(f)-1]
			if seen[label] {
				t.Errorf("%s: the IV label %s twice:\n%s", tc.name, label, strings.Join(lines, "\n"))
			}
			seen[label] = true
			v, err := strconv.ParseFloat(strings.TrimSuffix(label, "%"), 64)
			if err != nil {
				t.Fatalf("%s: IV label %q: %v", tc.name, label, err)
			}
			ivs = append(ivs, v)
		}
		if len(ivs) < 3 {
			t.Fatalf("%s: %d IV labels:\n%s", tc.name, len(ivs), ansi.Strip(strings.Join(lines, "\n")))
		}
		for i := 1; i < len(ivs); i++ {
			if ivs[i] >= ivs[i-1] {
				t.Errorf("%s: IV labels not falling down the axis: %v", tc.name, ivs)
			}
		}
	}
}

// TestChartWithoutIV: no IV, no right-hand axis, and the legend does not
// offer one.
func TestChartWithoutIV(t *testing.T) {
	d := chartFixture()
	for i := range d.Trades {
		d.Trades[i].IV = []float64{math.NaN(), 0, -1}[i%3] // none, or the service's zero
	}
	plain := ansi.Strip(strings.Join(Chart(&d, 80, 12, noColorStyles), "\n"))
	if strings.Contains(plain, "%") || strings.Contains(plain, "·") {
		t.Errorf("an IV axis without IV:\n%s", plain)
	}
}

// TestChartMidBreaksWithoutAMarket: a stretch of NaN mids (no two-sided
// market) leaves a gap in the line, not a segment across it; the line
// runs on each side of it.
func TestChartMidBreaksWithoutAMarket(t *testing.T) {
	d := chartFixture()
	d.Trades = nil
	for i := 20; i < 40; i++ {
		d.Mid[i].V = math.NaN()
	}
	lines := Chart(&d, 80, 12, noColorStyles)
	span := float64(d.To - d.From)
	col := func(i int) int { // the plot's column of mid i, the axis 5 cells in
		return 5 + int(float64(d.Mid[i].T-d.From)/span*74)
	}
	braille := func(from, to int) (n int) {
		for _, l := range lines[:9] {
			for x, r := range []rune(ansi.Strip(l)) {
				if x >= from && x <= to && r >= 0x2801 && r <= 0x28ff {
					n++
				}
			}
		}
		return n
	}
	if n := braille(col(20)+1, col(39)-1); n != 0 {
		t.Errorf("%d braille cells across the gap:\n%s", n, ansi.Strip(strings.Join(lines, "\n")))
	}
	if braille(col(0), col(19)) == 0 || braille(col(40), 79) == 0 {
		t.Errorf("no line beside the gap:\n%s", ansi.Strip(strings.Join(lines, "\n")))
	}
}

// BenchmarkContractChartDraw is the contract page's chart drawn from its
// data at 120x40's room, as after each page of trades or quotes.
//
//	go test -run '^$' -bench ContractChartDraw -benchmem ./ui
func BenchmarkContractChartDraw(b *testing.B) {
	d := chartFixture()
	b.ReportAllocs()
	for b.Loop() {
		Chart(&d, 56, 27, darkStyles)
	}
}
