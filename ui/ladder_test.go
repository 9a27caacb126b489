package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/theme"
)

// fixtureRows builds n strike rows 2.5 apart centred on spot, with prices
// and greeks from simple closed forms, so every test and benchmark in the
// package sees the same deterministic chain. Some values are null on
// purpose: every 7th call has no last trade, every 11th put no iv, every
// 13th call no bid or ask. Large open interest appears so the k suffix is
// exercised.
func fixtureRows(n int, spot float64) []StrikeRow {
	rows := make([]StrikeRow, n)
	first := math.Round(spot/2.5)*2.5 - float64(n/2)*2.5
	for i := range rows {
		k := first + float64(i)*2.5
		m := (spot - k) / 20 // moneyness in "vol units"
		tv := 6*math.Exp(-m*m/2) + 0.05
		callV := math.Max(spot-k, 0) + tv
		putV := math.Max(k-spot, 0) + tv
		cd := 0.5 * (1 + math.Tanh(m))
		gamma := 0.03 * math.Exp(-m*m/2)
		iv := 0.18 + 0.002*math.Abs(spot-k)
		row := &rows[i]
		row.Strike = k
		row.Call = fixtureContract(i, k, 'C', callV, iv, cd, gamma)
		row.Put = fixtureContract(i, k, 'P', putV, iv+0.01, cd-1, gamma)
		if i%7 == 3 {
			row.Call.Last = NaN
		}
		if i%11 == 5 {
			row.Put.IV = NaN
		}
		if i%13 == 6 {
			row.Call.Bid, row.Call.Ask = NaN, NaN
		}
	}
	return rows
}

func fixtureContract(i int, k float64, typ byte, v, iv, delta, gamma float64) Contract {
	spread := 0.02 + 0.01*v
	bid := math.Max(math.Round((v-spread/2)*100)/100, 0)
	ask := math.Round((v+spread/2)*100) / 100
	return Contract{
		OSI: fmt.Sprintf("SPY261121%c%08d", typ, int64(k*1000)),
		Bid: bid, Ask: ask, Mid: math.Round((bid+ask)*50) / 100, Last: math.Round(v*100) / 100,
		Open: NaN, High: NaN, Low: NaN, PrevClose: NaN,
		IV: iv, Delta: delta, Gamma: gamma, Theta: -0.02 - 0.1*gamma*10, Vega: 0.35 * gamma * 10, Rho: NaN,
		BidSize: int64(10 + i%90), AskSize: int64(5 + (i*7)%120),
		Volume: int64((i * 397) % 60000), OI: int64((i * 7919) % 250000), Trades: int64(i % 50),
	}
}

const fixtureSpot = 452.37

var (
	darkStyles    = theme.New(theme.Dark(), false)
	noColorStyles = theme.New(theme.Dark(), true)
)

// fixtureView is 41 strikes around 452.37 (400..502.5) with the cursor
// on the 450 call: the spot line falls between 450 and 452.5.
func fixtureView() *LadderView {
	rows := fixtureRows(41, fixtureSpot)
	return &LadderView{
		Rows: rows, Offset: 12, Cursor: 20, Side: api.Call, Spot: fixtureSpot,
		Set: fixtureSet, Now: time.Date(2026, 11, 18, 15, 0, 0, 0, time.UTC).UnixNano(),
		Flash: int64(700 * time.Millisecond), Focused: true,
	}
}

// checkFrame asserts the renderers' contract: height lines, each exactly
// width cells.
func checkFrame(t *testing.T, lines []string, width, height int) {
	t.Helper()
	if len(lines) != height {
		t.Fatalf("%d lines, want %d", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != width {
			t.Fatalf("line %d is %d cells, want %d: %q", i, w, width, ansi.Strip(l))
		}
	}
}

// headerCols is the number of columns on each side of a plain ladder,
// read off its title line ("... C Strike P ...").
func headerCols(plain []string) int { return (len(strings.Fields(plain[0])) - 3) / 2 }

func strip(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return out
}

// strikeOf returns the strike token of a plain ladder line (the one after
// ncols call-side values), "" for a line without one.
func strikeOf(line string, ncols int) string {
	f := strings.Fields(strings.NewReplacer("◀", " ", "▶", " ").Replace(line))
	if len(f) != 2*ncols+1 {
		return ""
	}
	return f[ncols]
}

func TestLadderGoldenWide(t *testing.T) {
	v := fixtureView()
	v.Set = allColumns // all
	// Flash a few cells: one up, one down, one whose flash is over.
	v.Rows[19].Call.Changed = ColMask(0).With(ColBid).With(ColAsk)
	v.Rows[19].Call.Rose = ColMask(0).With(ColBid)
	v.Rows[19].Call.ChangedAt = v.Now - int64(200*time.Millisecond)
	v.Rows[22].Put.Changed = ColMask(0).With(ColLast)
	v.Rows[22].Put.ChangedAt = v.Now - int64(time.Second)
	lines := Ladder(v, 160, 20, darkStyles)
	checkFrame(t, lines, 160, 20)
	golden.RequireEqual(t, strings.Join(lines, "\n"))
}

func TestLadderGoldenNarrow(t *testing.T) {
	v := fixtureView()
	v.Side = api.Put
	lines := Ladder(v, 80, 16, darkStyles)
	checkFrame(t, lines, 80, 16)
	plain := strip(lines)
	for _, want := range []string{"Bid", "Ask", "IV", "Delta"} {
		if strings.Count(plain[0], want) != 2 {
			t.Errorf("80 columns must show %s on both sides: %q", want, plain[0])
		}
	}
	golden.RequireEqual(t, strings.Join(lines, "\n"))
}

func TestLadderGoldenNoColor(t *testing.T) {
	v := fixtureView()
	v.Rows[19].Call.Changed = ColMask(0).With(ColBid)
	v.Rows[19].Call.ChangedAt = v.Now
	lines := Ladder(v, 100, 16, noColorStyles)
	checkFrame(t, lines, 100, 16)
	out := strings.Join(lines, "\n")
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Error("NO_COLOR ladder carries colour")
	}
	// The cursor shows as text, and as reverse video.
	if !strings.Contains(out, "◀") || !strings.Contains(out, "\x1b[7m") {
		t.Error("NO_COLOR ladder lost its cursor")
	}
	golden.RequireEqual(t, out)
}

func TestLadderAlwaysExactSize(t *testing.T) {
	v := fixtureView()
	for _, st := range []*theme.Styles{darkStyles, noColorStyles} {
		for w := 1; w <= 220; w += 3 {
			for _, h := range []int{1, 2, 3, 5, 30} {
				for _, set := range ColumnSets {
					v.Set = set
					checkFrame(t, Ladder(v, w, h, st), w, h)
				}
			}
		}
	}
	checkFrame(t, Ladder(v, 0, 3, darkStyles), 0, 3)
	if n := len(Ladder(v, 80, 0, darkStyles)); n != 0 {
		t.Fatalf("height 0: %d lines", n)
	}
	// Empty rows, an out-of-range offset, an unknown spot, a message.
	for _, mod := range []func(*LadderView){
		func(v *LadderView) { v.Rows = nil },
		func(v *LadderView) { v.Offset = 1000 },
		func(v *LadderView) { v.Offset = -4 },
		func(v *LadderView) { v.Spot = NaN },
		func(v *LadderView) { v.Message = "loading SPY…" },
		func(v *LadderView) { v.Message = strings.Repeat("a very long error ", 20) },
	} {
		v := fixtureView()
		mod(v)
		for _, w := range []int{8, 80, 100} {
			checkFrame(t, Ladder(v, w, 10, darkStyles), w, 10)
		}
	}
}

func TestLadderNullsAreDashes(t *testing.T) {
	v := fixtureView()
	v.Rows[14].Call.Bid, v.Rows[14].Call.Ask = NaN, NaN
	v.Rows[14].Put.Volume, v.Rows[14].Put.OI = -1, -1
	v.Rows[15].Call = Contract{} // unlisted: blank, not dashes
	plain := strip(Ladder(v, 100, 20, darkStyles))
	ncols := headerCols(plain)
	line := plain[1+14-v.Offset]
	f := strings.Fields(line)
	if len(f) != 2*ncols+1 {
		t.Fatalf("row 14: %d fields: %q", len(f), line)
	}
	// quotes: OI Vol IV Delta Last Bid Ask | K | Bid Ask Last Delta IV Vol OI
	if f[ncols-2] != "-" || f[ncols-1] != "-" {
		t.Errorf("null bid/ask should be dashes: %q", line)
	}
	if f[2*ncols] != "-" || f[2*ncols-1] != "-" {
		t.Errorf("null volume/OI should be dashes: %q", line)
	}
	unl := plain[1+15-v.Offset]
	if f := strings.Fields(unl); len(f) != ncols+1 || f[0] != "440" {
		t.Errorf("an unlisted call should be blank: %q", unl)
	}
}

func TestLadderSpotLineBetweenStrikes(t *testing.T) {
	v := fixtureView()
	lines := Ladder(v, 100, 20, darkStyles)
	plain := strip(lines)
	ncols := headerCols(plain)
	at := -1
	for i, l := range plain {
		if strings.Contains(l, "452.37") && strings.Contains(l, "─") {
			at = i
		}
	}
	if at < 2 || at >= len(plain)-1 {
		t.Fatalf("spot line at %d:\n%s", at, strings.Join(plain, "\n"))
	}
	if above, below := strikeOf(plain[at-1], ncols), strikeOf(plain[at+1], ncols); above != "450" || below != "452.5" {
		t.Errorf("spot line between %q and %q, want 450 and 452.5", above, below)
	}
	// The number sits under the strike column.
	mid := 100 / 2
	if !strings.Contains(string([]rune(plain[at])[mid-6:mid+6]), "452.37") {
		t.Errorf("spot price not centred on the strike column: %q", plain[at])
	}

	// Off the window: pinned to the edge with an arrow.
	v.Offset = 0 // rows 0..17: strikes 402.5..445, spot below them
	p := strip(Ladder(v, 100, 20, darkStyles))
	if !strings.Contains(p[len(p)-1], "▼ 452.37") {
		t.Errorf("spot below the window should pin to the bottom: %q", p[len(p)-1])
	}
	v.Offset = 25
	p = strip(Ladder(v, 100, 20, darkStyles))
	if !strings.Contains(p[1], "▲ 452.37") {
		t.Errorf("spot above the window should pin to the top: %q", p[1])
	}
	// Unknown spot: no line, no ITM.
	v.Offset, v.Spot = 12, NaN
	out := strings.Join(Ladder(v, 100, 20, darkStyles), "\n")
	if strings.Contains(out, "─") || strings.Contains(out, darkStyles.Span(theme.ToneText, theme.ShadeITM).Open) {
		t.Error("no spot: no spot line and no ITM shading")
	}
}

func TestLadderITMShading(t *testing.T) {
	v := fixtureView()
	v.Cursor = -1 // no cursor row to confuse the sides
	lines := Ladder(v, 100, 20, darkStyles)
	itm := darkStyles.Span(theme.ToneText, theme.ShadeITM).Open
	strikeOpen := darkStyles.Span(theme.ToneBold, theme.ShadeHeader).Open
	for y := 1; y < len(lines); y++ {
		row, ok := LadderHit(v, 20, y)
		if !ok {
			continue
		}
		l := lines[y]
		i := strings.Index(l, strikeOpen)
		if i < 0 {
			t.Fatalf("line %d: no strike span", y)
		}
		callITM := strings.Contains(l[:i], itm)
		putITM := strings.Contains(l[i:], itm)
		k := v.Rows[row].Strike
		if callITM != (k < v.Spot) || putITM != (k > v.Spot) {
			t.Errorf("strike %v: call ITM %v, put ITM %v (spot %v)", k, callITM, putITM, v.Spot)
		}
	}
}

func TestLadderCursorAndFlash(t *testing.T) {
	v := fixtureView()
	v.Rows[20].Put.Changed = ColMask(0).With(ColBid)
	v.Rows[20].Put.Rose = ColMask(0).With(ColBid)
	v.Rows[20].Put.ChangedAt = v.Now - int64(100*time.Millisecond)
	v.Rows[21].Call.Changed = ColMask(0).With(ColAsk)
	v.Rows[21].Call.ChangedAt = v.Now - int64(100*time.Millisecond)
	v.Rows[22].Call.Changed = ColMask(0).With(ColAsk)
	v.Rows[22].Call.ChangedAt = v.Now - int64(900*time.Millisecond) // over
	lines := Ladder(v, 100, 20, darkStyles)
	line := func(row int) string {
		for y := range lines {
			if r, ok := LadderHit(v, 20, y); ok && r == row {
				return lines[y]
			}
		}
		t.Fatalf("row %d not drawn", row)
		return ""
	}
	up := darkStyles.Span(theme.ToneUp, theme.ShadeFlash).Open
	down := darkStyles.Span(theme.ToneDown, theme.ShadeFlash).Open
	if l := line(20); !strings.Contains(l, up) || strings.Contains(l, down) {
		t.Error("a risen bid should flash up")
	}
	if l := line(21); !strings.Contains(l, down) {
		t.Error("a fallen ask should flash down")
	}
	if l := line(22); strings.Contains(l, up) || strings.Contains(l, down) {
		t.Error("a change older than Flash should not flash")
	}
	cur := line(20)
	if !strings.Contains(ansi.Strip(cur), "◀") || !strings.Contains(cur, darkStyles.Span(theme.ToneText, theme.ShadeCursor).Open) {
		t.Error("the cursor row should carry the ◀ mark and the cursor shade")
	}
	v.Side = api.Put
	lines = Ladder(v, 100, 20, darkStyles)
	if p := ansi.Strip(line(20)); !strings.Contains(p, "▶") || strings.Contains(p, "◀") {
		t.Errorf("put side cursor should point right: %q", p)
	}
	v.Focused = false
	lines = Ladder(v, 100, 20, darkStyles)
	if strings.Contains(line(20), darkStyles.Span(theme.ToneText, theme.ShadeCursor).Open) {
		t.Error("an unfocused ladder shades only the strike of the cursor row")
	}
}

func TestLadderHit(t *testing.T) {
	for _, off := range []int{0, 5, 12, 25} {
		v := fixtureView()
		v.Offset = off
		const h = 20
		plain := strip(Ladder(v, 100, h, darkStyles))
		ncols := headerCols(plain)
		seen := 0
		for y := -1; y <= h; y++ {
			row, ok := LadderHit(v, h, y)
			if y < 0 || y >= h {
				if ok {
					t.Errorf("offset %d: y %d outside the pane hit row %d", off, y, row)
				}
				continue
			}
			s := strikeOf(plain[y], ncols)
			if !ok {
				if y > 0 && s != "" {
					t.Errorf("offset %d: line %d shows strike %s but hits nothing", off, y, s)
				}
				continue
			}
			seen++
			if want := fmtStrike(v.Rows[row].Strike); s != want {
				t.Errorf("offset %d: line %d hits row %d (%s) but shows %q", off, y, row, want, s)
			}
		}
		if want := min(LadderRows(h), len(v.Rows)-off); seen != want {
			t.Errorf("offset %d: %d rows hit, want %d", off, seen, want)
		}
	}
	v := fixtureView()
	v.Message = "loading"
	if _, ok := LadderHit(v, 20, 5); ok {
		t.Error("a message has no rows")
	}
}

// TestLadderOnlyVisibleRows proves the ladder's output depends on the
// visible rows alone: the full chain at an offset draws the same lines as
// just the visible slice at offset 0. (That is what keeps View's cost flat
// in the size of the chain; the allocation count below and the
// BenchmarkLadderView sizes show it too.)
func TestLadderOnlyVisibleRows(t *testing.T) {
	const h = 24
	full := fixtureRows(2001, fixtureSpot)
	n := LadderRows(h)
	for _, off := range []int{990, 995, 1000 - n + 1} {
		a := &LadderView{Rows: full, Offset: off, Cursor: 1000, Spot: fixtureSpot, Set: allColumns, Focused: true}
		b := *a
		b.Rows = full[off : off+n]
		b.Offset, b.Cursor = 0, 1000-off
		la, lb := Ladder(a, 120, h, darkStyles), Ladder(&b, 120, h, darkStyles)
		if strings.Join(la, "\n") != strings.Join(lb, "\n") {
			t.Fatalf("offset %d: the full chain and its visible slice draw differently", off)
		}
	}
	allocs := func(rows int) float64 {
		v := &LadderView{Rows: fixtureRows(rows, fixtureSpot), Spot: fixtureSpot, Set: allColumns, Focused: true}
		v.Cursor = rows / 2
		v.Offset = v.Cursor - 20
		return testing.AllocsPerRun(20, func() { Ladder(v, 100, 44, darkStyles) })
	}
	if a, b := allocs(200), allocs(20000); a != b || a > 3 {
		t.Errorf("allocations per frame: %v with 200 rows, %v with 20,000 (want equal, and few)", a, b)
	}
}

func TestLadderMessage(t *testing.T) {
	v := fixtureView()
	v.Message = "loading SPY…"
	plain := strip(Ladder(v, 80, 10, darkStyles))
	if !strings.Contains(plain[4], "loading SPY…") {
		t.Fatalf("message not on the middle line:\n%s", strings.Join(plain, "\n"))
	}
	for i, l := range plain[1:] {
		if i+1 != 4 && strings.TrimSpace(l) != "" {
			t.Errorf("line %d should be blank with a message: %q", i+1, l)
		}
	}
}

func TestFitColumns(t *testing.T) {
	all := allColumns
	if got := FitColumns(all, 400); len(got) != len(all.Cols) {
		t.Fatalf("a wide ladder shows every column: %v", got)
	}
	// Shrinking the width drops columns lowest priority first.
	prev := all.Cols
	for w := 400; w >= 0; w-- {
		got := FitColumns(all, w)
		var have ColMask
		for _, c := range got {
			have = have.With(c)
		}
		var had ColMask
		for _, c := range prev {
			had = had.With(c)
		}
		if have&^had != 0 && len(got) <= len(prev) {
			// A narrower column may come back when a wider one went; it
			// must then have a lower priority than what left.
			for _, c := range got {
				if !had.Has(c) {
					for _, d := range prev {
						if !have.Has(d) && cols[c].priority > cols[d].priority {
							t.Errorf("width %d: %s came back above %s", w, c.Title(), d.Title())
						}
					}
				}
			}
		}
		for _, c := range got {
			for _, d := range all.Cols {
				if !have.Has(d) && cols[d].priority > cols[c].priority && cols[d].width <= cols[c].width {
					t.Errorf("width %d: kept %s but dropped the more important %s", w, c.Title(), d.Title())
				}
			}
		}
		// Order is the set's order.
		j := 0
		for _, c := range all.Cols {
			if j < len(got) && got[j] == c {
				j++
			}
		}
		if j != len(got) {
			t.Errorf("width %d: %v is not in the set's order", w, got)
		}
		prev = got
	}
	if got := FitColumns(all, 150); len(got) != len(all.Cols)-1 || containsCol(got, ColVega) {
		t.Errorf("the first column to go is vega: %v", titles(got))
	}
	if got := FitColumns(all, 30); len(got) != 1 || got[0] != ColBid {
		t.Errorf("bid goes last: %v", titles(got))
	}
	// Every set keeps bid and ask on an 80-column terminal, and the
	// greeks set its iv and delta.
	for _, set := range append(ColumnSets, fixtureSet) {
		got := FitColumns(set, 80)
		want := []Col{ColBid, ColAsk}
		if set.Name != "quotes" && set.Name != "activity" {
			want = append(want, ColIV, ColDelta)
		}
		for _, c := range want {
			if !containsCol(got, c) {
				t.Errorf("%s at 80 columns dropped %s: %v", set.Name, c.Title(), titles(got))
			}
		}
	}
	// The put side mirrors the calls but reads bid before ask.
	puts := putOrder([]Col{ColVolume, ColBidSize, ColBid, ColAsk, ColAskSize}, nil)
	if want := []Col{ColBidSize, ColBid, ColAsk, ColAskSize, ColVolume}; fmt.Sprint(puts) != fmt.Sprint(want) {
		t.Errorf("put order %v, want %v", titles(puts), titles(want))
	}
}

func containsCol(cs []Col, c Col) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func titles(cs []Col) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Title()
	}
	return out
}

func TestPriceWidth(t *testing.T) {
	cases := []struct {
		spot float64
		want int
	}{{NaN, 7}, {4.2, 4}, {45, 5}, {452.37, 6}, {5900, 7}, {21000, 8}}
	for _, c := range cases {
		if got := priceWidth(c.spot); got != c.want {
			t.Errorf("priceWidth(%v) = %d, want %d", c.spot, got, c.want)
		}
	}
	// A price wider than its column loses decimals, not digits.
	c := Contract{Bid: 12345.67}
	if got := string(appendCell(nil, &c, ColBid, 6)); got != "12346" {
		t.Errorf("overflowing price: %q", got)
	}
}

// The speed bar (item 10): the ladder's View must not depend on
// the size of the chain (20,000 rows within 1.2x of 200), and the whole
// frame must cost at most a quarter of bubble-table's View of the same 40
// visible rows. BenchmarkBubbleTableView40 is that yardstick, run beside
// the ladder on the same machine so the ratio, not the absolute figure,
// is what is read.

var benchLines []string

// benchView is the ladder at the size of a 160x48 terminal's ladder pane
// (100 x 44: the wide layout's left column), the cursor mid-chain.
func benchView(n int, set ColumnSet) *LadderView {
	v := &LadderView{
		Rows: fixtureRows(n, fixtureSpot), Spot: fixtureSpot, Set: set,
		Now: time.Date(2026, 11, 18, 15, 0, 0, 0, time.UTC).UnixNano(), Flash: int64(700 * time.Millisecond),
		Focused: true,
	}
	v.Cursor = n / 2
	v.Offset = v.Cursor - LadderRows(44)/2
	return v
}

func BenchmarkLadderView(b *testing.B) {
	run := func(name string, v *LadderView, width, height int, st *theme.Styles) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchLines = Ladder(v, width, height, st)
			}
		})
	}
	run("200", benchView(200, ColumnSets[0]), 100, 44, darkStyles)
	run("20000", benchView(20000, ColumnSets[0]), 100, 44, darkStyles)

	// Every visible cell flashing: the most spans a frame can need.
	flash := benchView(20000, ColumnSets[0])
	all := ColMask(1<<NumCols - 1)
	for i := flash.Offset; i < flash.Offset+LadderRows(44); i++ {
		for _, c := range []*Contract{&flash.Rows[i].Call, &flash.Rows[i].Put} {
			c.Changed, c.ChangedAt = all, flash.Now
			if i%2 == 0 {
				c.Rose = all
			}
		}
	}
	run("20000-flash", flash, 100, 44, darkStyles)
	run("20000-nocolor", benchView(20000, ColumnSets[0]), 100, 44, noColorStyles)

	// The bubble-table comparison's shape: 40 rows, 160 wide, every column.
	v40 := benchView(20000, allColumns)
	v40.Offset = v40.Cursor - 20
	run("40rows-160wide-all", v40, 160, 42, darkStyles)
}

// fixtureSet is the columns the renderer's goldens are drawn with: a
// mix of prices, sizes and greeks, so one golden exercises every kind of
// cell.
var fixtureSet = ColumnSet{Name: "fixture", Cols: []Col{ColOI, ColVolume, ColIV, ColDelta, ColLast, ColBid, ColAsk}}

// allColumns is a set of every column the sets had before they were cut
// to what fits 120 columns: the tests of fitting and of the renderer's
// cost use it to draw as many cells as a row can hold.
var allColumns = ColumnSet{Name: "all", Cols: []Col{ColOI, ColVolume, ColVega, ColTheta, ColGamma, ColDelta, ColIV, ColLast, ColMid, ColBid, ColAsk}}

// TestColumnSetsFit120: at 120 columns every set shows all its columns,
// and each names a set a trader asks for.
func TestColumnSetsFit120(t *testing.T) {
	names := []string{}
	for _, set := range ColumnSets {
		names = append(names, set.Name)
		if got := FitColumns(set, 120); len(got) != len(set.Cols) {
			t.Errorf("set %s at 120 columns shows %d of %d columns", set.Name, len(got), len(set.Cols))
		}
	}
	if strings.Join(names, ",") != "quotes,greeks,activity" {
		t.Errorf("sets %v", names)
	}
}

// TestActivityColumns: the change is against the previous close, and
// volume over open interest is a dash without open interest.
func TestActivityColumns(t *testing.T) {
	c := &Contract{Last: 2.5, PrevClose: 2.0, Volume: 300, OI: 200}
	if got := string(appendCell(nil, c, ColChange, 6)); got != "+0.50" {
		t.Errorf("change %q", got)
	}
	if got := string(appendCell(nil, c, ColVolOI, 5)); got != "1.50" {
		t.Errorf("vol/OI %q", got)
	}
	c.OI, c.PrevClose = 0, NaN
	if got := string(appendCell(nil, c, ColVolOI, 5)) + string(appendCell(nil, c, ColChange, 6)); got != "--" {
		t.Errorf("without OI or a previous close: %q", got)
	}
}

// TestDetailsSayWhyNoIV: a dash for IV comes with its reason.
func TestDetailsSayWhyNoIV(t *testing.T) {
	for _, tc := range []struct {
		c    Contract
		want string
	}{
		{Contract{Bid: 0, Ask: 0.05, IV: NaN}, " no bid"},
		{Contract{Bid: 0.10, Ask: 0.60, IV: NaN}, " too wide"},
		{Contract{Bid: NaN, Ask: NaN, IV: NaN}, " no market"},
		{Contract{Bid: 1.00, Ask: 1.05, IV: NaN}, " none given"},
		{Contract{Bid: 1.00, Ask: 1.05, IV: 0.2}, ""},
	} {
		if got := noIVReason(&tc.c); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
}
