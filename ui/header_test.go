package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/theme"
)

func TestHeaderExactWidths(t *testing.T) {
	variants := []func(h *HeaderData){
		func(h *HeaderData) {},
		func(h *HeaderData) { h.Stale, h.Age = true, 3*time.Hour },
		func(h *HeaderData) { h.Loading = true },
		func(h *HeaderData) { h.Historical, h.Date = true, api.NewDate(2026, 11, 18) },
		func(h *HeaderData) {
			*h = HeaderData{Last: NaN, PrevClose: NaN, Bid: NaN, Ask: NaN, Open: NaN, High: NaN, Low: NaN, BidSize: -1, AskSize: -1, Volume: -1, IV30: NaN, IV30Change: NaN, ImpliedBid: NaN, ImpliedAsk: NaN, ImpliedMid: NaN, AsOf: -1}
		},
	}
	for _, w := range []int{1, 20, 40, 80, 100, 120, 160, 200} {
		for i, v := range variants {
			h := pxHeader()
			v(h)
			for _, st := range []*theme.Styles{pxColor, pxNoColor} {
				lines := Header(h, w, st)
				pxCheck(t, "header variant "+string(rune('0'+i)), lines, w, 2)
			}
		}
	}
}

func TestHeaderSaysEverything(t *testing.T) {
	lines := Header(pxHeader(), 200, pxColor)
	l1, l2 := ansi.Strip(lines[0]), ansi.Strip(lines[1])
	for _, w := range []string{"SPY", "452.37", "+2.27", "+0.50%", "452.36 x 12", "452.38 x 8", "LIVE", "[SANDBOX]", "as of 11:30:05", "2s ago"} {
		if !strings.Contains(l1, w) {
			t.Errorf("line 1 lacks %q: %q", w, l1)
		}
	}
	for _, w := range []string{"O 451.20", "H 453.10", "L 450.80", "Vol 54.3M", "IV30 22.08%", "+0.40", "implied 452.35 / 452.39", "mid 452.37", "● GREEN"} {
		if !strings.Contains(l2, w) {
			t.Errorf("line 2 lacks %q: %q", w, l2)
		}
	}
	// The change is drawn in the up tone: a fall in the down tone.
	if !strings.Contains(lines[0], pxColor.Span(theme.ToneUp, theme.ShadeHeader).Open+"+2.27") {
		t.Errorf("a rise is not in the up tone")
	}
	h := pxHeader()
	h.Last = 449.00
	l := Header(h, 200, pxColor)[0]
	if !strings.Contains(ansi.Strip(l), "-1.10 -0.24%") || !strings.Contains(l, pxColor.Span(theme.ToneDown, theme.ShadeHeader).Open+"-1.10") {
		t.Errorf("a fall: %q", ansi.Strip(l))
	}
}

func TestHeaderBadgeIsAWord(t *testing.T) {
	for ind, want := range map[api.Indicator]struct {
		word string
		tone theme.Tone
	}{
		api.Green: {"● GREEN", theme.ToneGood}, api.Yellow: {"● YELLOW", theme.ToneCaution},
		api.Red: {"● RED", theme.ToneBad}, "": {"○ n/a", theme.ToneMuted},
	} {
		h := pxHeader()
		h.Indicator = ind
		l2 := Header(h, 120, pxColor)[1]
		if !strings.Contains(ansi.Strip(l2), want.word) {
			t.Errorf("%q: badge word %q missing: %q", ind, want.word, ansi.Strip(l2))
		}
		if !strings.Contains(l2, pxColor.Span(want.tone, theme.ShadeNone).Wrap(want.word)) {
			t.Errorf("%q: badge not in its tone", ind)
		}
		// The badge survives a narrow terminal.
		if l := ansi.Strip(Header(h, 80, pxNoColor)[1]); !strings.Contains(l, want.word) {
			t.Errorf("%q at 80 wide: %q", ind, l)
		}
	}
}

func TestHeaderModesAndNulls(t *testing.T) {
	h := pxHeader()
	h.Mode = api.Delayed
	if l := ansi.Strip(Header(h, 160, pxColor)[0]); !strings.Contains(l, "DELAYED 15m") {
		t.Errorf("delayed: %q", l)
	}
	h.Historical, h.Date = true, api.NewDate(2026, 11, 18)
	if l := ansi.Strip(Header(h, 160, pxColor)[0]); !strings.Contains(l, "HIST 2026-11-18") || strings.Contains(l, "ago") {
		t.Errorf("historical: %q", l)
	}
	h = pxHeader()
	h.Last, h.ImpliedBid, h.ImpliedMid, h.Volume = NaN, NaN, NaN, -1
	lines := Header(h, 200, pxColor)
	if l := ansi.Strip(lines[0]); !strings.HasPrefix(l, "SPY  -  ") {
		t.Errorf("a null last is a dash: %q", l)
	}
	if l := ansi.Strip(lines[1]); !strings.Contains(l, "implied - / 452.39") || !strings.Contains(l, "mid -") || !strings.Contains(l, "Vol -") {
		t.Errorf("null implied fields are dashes: %q", l)
	}
	h.Volume = 0 // an index: it does not trade
	if l := ansi.Strip(Header(h, 200, pxColor)[1]); !strings.Contains(l, "Vol -") || strings.Contains(l, "Vol 0") {
		t.Errorf("an index's volume of 0 is a dash: %q", l)
	}
	h.Loading = true
	if l := ansi.Strip(Header(h, 120, pxColor)[0]); !strings.Contains(l, "loading…") {
		t.Errorf("loading: %q", l)
	}
}

// Narrow headers keep what matters most: the symbol, price and a STALE
// warning go last.
func TestHeaderPriorities(t *testing.T) {
	h := pxHeader()
	h.Stale, h.Age = true, 42*time.Second
	for _, w := range []int{40, 60, 80} {
		l := ansi.Strip(Header(h, w, pxColor)[0])
		for _, want := range []string{"SPY", "452.37", "STALE 42s"} {
			if !strings.Contains(l, want) {
				t.Errorf("%d wide lacks %q: %q", w, want, l)
			}
		}
	}
}
