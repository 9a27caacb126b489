package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/theme"
)

// pxGreeksTrades is pxTrades with the greeks columns on: the first prints
// have their IV, the next were asked and the service had none, the rest
// are not fetched yet; two premiums are the widest a tape shows (a
// $1.2M block, $58,300).
func pxGreeksTrades() *TapeView {
	v := pxTrades()
	v.Greeks = true
	for i := range v.Trades {
		tr := &v.Trades[i]
		switch {
		case i < 3:
			tr.IV, tr.Delta, tr.GreeksAsked = 0.101+float64(i)/100, 0.408-float64(i)/10, true
		case i < 5:
			tr.IV, tr.Delta, tr.GreeksAsked = NaN, NaN, true
		default:
			tr.IV, tr.Delta = NaN, NaN
		}
	}
	v.Trades[0].Price, v.Trades[0].Size = 123.45, 100 // $1,234,500
	v.Trades[1].Price, v.Trades[1].Size = 5.83, 100   // $58,300
	v.Trades[2].Strike = 6952.5                       // an SPX strike
	return v
}

// TestGoldenTapeGreeks: the tape's widths in the two terminals it is
// checked at. In a 160x48 terminal the tape has 60 cells: the expiry,
// IV, delta and the premium at its widest all fit, a print without an IV
// says why ("·" not fetched yet, "-" the service has none) and the title
// names both. In 80x24 (44 cells) the IV cannot fit and the title says so.
func TestGoldenTapeGreeks(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
	}{{"80x24", 44, 8}, {"160x48", 60, 14}} {
		t.Run(c.name, func(t *testing.T) {
			lines := Tape(pxGreeksTrades(), c.w, c.h, pxNoColor)
			pxCheck(t, "tape", lines, c.w, c.h)
			plain := pxPlainLines(lines)
			if c.w == 44 {
				if !strings.Contains(plain[0], "IV needs a wider tape") || !strings.Contains(plain[3], "Nov21") {
					t.Errorf("44 wide:\n%s", strings.Join(plain, "\n"))
				}
			} else {
				for _, want := range []string{"IV%", "delta", "prem$"} {
					if !strings.Contains(plain[2], want) {
						t.Errorf("headings %q lack %q", plain[2], want)
					}
				}
				prem := strings.Index(plain[2], "prem$") + len("prem$")
				for row, want := range map[int]string{3: "1.2M", 4: "58300"} {
					if got := strings.TrimSpace(string([]rune(plain[row])[prem-tapePremW : prem])); got != want {
						t.Errorf("row %d premium %q under its heading, want %q:\n%s", row, got, want, plain[row])
					}
				}
				iv := strings.Index(plain[2], "IV%") + len("IV%")
				for row, want := range map[int]string{3: "10.1", 5: "12.1", 6: "-", 7: "-", 8: tapeNotFetched} {
					if got := strings.TrimSpace(string([]rune(plain[row])[iv-tapeIVW : iv])); got != want {
						t.Errorf("row %d IV %q, want %q:\n%s", row, got, want, plain[row])
					}
				}
				if !strings.Contains(plain[5], "6952.5") {
					t.Errorf("an SPX strike is cut: %q", plain[5])
				}
				if !strings.Contains(plain[0], "IV "+tapeNotFetched+" to fetch, - none") {
					t.Errorf("title %q: no legend for the IV dashes", plain[0])
				}
			}
			golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
		})
	}
}

// TestTapeIVLegend: the title's note names only the reasons on screen.
func TestTapeIVLegend(t *testing.T) {
	v := pxGreeksTrades()
	if got := tapeIVLegend(v.Trades[:3]); got != "" {
		t.Errorf("every IV shown: %q", got)
	}
	if got := tapeIVLegend(v.Trades[:5]); got != "IV - none: no bid or too wide" {
		t.Errorf("asked, none: %q", got)
	}
	if got := tapeIVLegend(v.Trades[5:]); got != "IV "+tapeNotFetched+" to fetch" {
		t.Errorf("not fetched: %q", got)
	}
}

// TestTapeQuoteIV: a print carrying its contract's quote's IV (not its
// own yet) reads "~22" under IV%, in whole points, its delta as the
// quote's; the title names the mark with the other reasons on screen.
func TestTapeQuoteIV(t *testing.T) {
	v := pxGreeksTrades()
	v.Trades[5].IV, v.Trades[5].Delta, v.Trades[5].IVQuote = 0.2234, -0.31, true
	v.Trades[6].IV, v.Trades[6].Delta, v.Trades[6].IVQuote = 1.054, 0.02, true
	lines := Tape(v, 60, 14, pxNoColor)
	pxCheck(t, "tape", lines, 60, 14)
	plain := pxPlainLines(lines)
	iv := strings.Index(plain[2], "IV%") + len("IV%")
	for row, want := range map[int]string{3: "10.1", 6: "-", 8: tapeQuoteMark + "22", 9: tapeQuoteMark + "105", 10: tapeNotFetched} {
		if got := strings.TrimSpace(string([]rune(plain[row])[iv-tapeIVW : iv])); got != want {
			t.Errorf("row %d IV %q, want %q:\n%s", row, got, want, strings.Join(plain, "\n"))
		}
	}
	if !strings.Contains(plain[8], "~22 -0.31 ") {
		t.Errorf("row 8 lacks the quote's delta: %q", plain[8])
	}
	if !strings.Contains(plain[0], "IV ~ quote's, ? to fetch, - none") {
		t.Errorf("title %q", plain[0])
	}
	if got := tapeIVLegend(v.Trades[5:7]); got != "IV ~ quote's" {
		t.Errorf("only quotes: %q", got)
	}
	if got := tapeIVLegend(v.Trades[3:7]); got != "IV ~ quote's, - none" {
		t.Errorf("quotes and none: %q", got)
	}
}

// TestTapeTitleCutsAtWords: a title too long for the pane loses its held
// count first, then ends at a word with "…": not "IV needs a wider tap"
// (the 80-column screen's tape with i pressed and a filter).
func TestTapeTitleCutsAtWords(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	full := map[string]bool{}
	for _, w := range strings.Fields("▸ Time & Sales · Fri Nov 20 · puts SPY261124C00699000 ≥50 · IV needs a wider tape · 3839 held") {
		full[w] = true
	}
	for w := 14; w <= 120; w++ { // from the name alone
		v := &TapeView{Held: 3839, Filter: "puts SPY261124C00699000 ≥50", Session: "Fri Nov 20", Focused: true, Greeks: true}
		title := ansi.Strip(Tape(v, w, 6, st)[0])
		if ansi.StringWidth(title) != w {
			t.Fatalf("%d columns: the title is %d wide", w, ansi.StringWidth(title))
		}
		for _, word := range strings.Fields(title) {
			if !full[word] && !strings.HasSuffix(word, "…") {
				t.Errorf("%d columns: %q cut mid-word in %q", w, word, title)
			}
		}
		if strings.Contains(title, "held") && strings.Contains(title, "IV") && !strings.Contains(title, "IV needs a wider tape") {
			t.Errorf("%d columns: the count kept, the note cut: %q", w, title)
		}
	}
}
