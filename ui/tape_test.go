package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/theme"
)

func TestTradeAtCode(t *testing.T) {
	for at, want := range map[api.TradeAt]struct {
		code string
		tone theme.Tone
	}{
		api.AboveAsk: {"AA", theme.ToneAskSide}, api.OnAsk: {"A", theme.ToneAskSide},
		api.MidMarket: {"M", theme.ToneMidSide},
		api.OnBid:     {"B", theme.ToneBidSide}, api.BelowBid: {"BB", theme.ToneBidSide},
		api.CrossedMarket: {"X", theme.ToneMuted}, api.NoMarket: {"NM", theme.ToneMuted},
		"": {"-", theme.ToneMuted}, "Something Else": {"-", theme.ToneMuted},
	} {
		code, tone := TradeAtCode(at)
		if code != want.code || tone != want.tone {
			t.Errorf("TradeAtCode(%q) = %q, %d; want %q, %d", at, code, tone, want.code, want.tone)
		}
	}
}

func TestTapeExactSizes(t *testing.T) {
	for _, w := range []int{1, 10, 30, 44, 45, 52, 60, 70, 72, 80, 119, 200} {
		for _, h := range []int{0, 1, 2, 3, 8, 12, 40} {
			for _, st := range []*theme.Styles{pxColor, pxNoColor} {
				v := pxTrades()
				pxCheck(t, "tape", Tape(v, w, h, st), w, h)
				v.Message = "loading trades…"
				pxCheck(t, "tape message", Tape(v, w, h, st), w, h)
			}
		}
	}
}

func TestTapeRows(t *testing.T) {
	v := pxTrades()
	lines := Tape(v, 72, 14, pxColor)
	plain := strings.Split(pxPlain(lines), "\n")
	if !strings.Contains(plain[0], "Time & Sales · all · 1234 held") {
		t.Errorf("title: %q", plain[0])
	}
	for _, w := range []string{"AA A ask", "M mid", "B BB bid", "◆ block ≥100", "x canceled"} {
		if !strings.Contains(plain[1], w) {
			t.Errorf("legend lacks %q: %q", w, plain[1])
		}
	}
	// Rows in the order given (newest first), one per trade.
	for i, tr := range v.Trades {
		row := plain[2+i]
		if !strings.Contains(row, string(appendClock(nil, tr.Time, false))) {
			t.Errorf("row %d is not trade %d: %q", i, i, row)
		}
		code, _ := TradeAtCode(tr.At)
		switch tr.Cancel {
		case api.TradeCanceled:
			if !strings.HasPrefix(row, "x ") {
				t.Errorf("canceled trade without its mark: %q", row)
			}
			if !strings.Contains(lines[2+i], pxColor.Span(theme.ToneCanceled, theme.ShadeNone).Open) {
				t.Errorf("canceled trade not dimmed")
			}
		case api.TradeCancel:
			if !strings.Contains(row, " CXL ") {
				t.Errorf("cancel message without CXL: %q", row)
			}
		default:
			if !strings.Contains(row, " "+fmtStrike(tr.Strike)+" Nov21 ") {
				t.Errorf("row %d lacks strike and expiry: %q", i, row)
			}
			if !strings.Contains(row, " "+code+" ") {
				t.Errorf("row %d lacks its code %q: %q", i, code, row)
			}
			cp := " C "
			tone := theme.ToneCall
			if tr.Type == api.Put {
				cp, tone = " P ", theme.TonePut
			}
			if !strings.Contains(row, cp) || !strings.Contains(lines[2+i], pxColor.Span(tone, theme.ShadeNone).Open+cp[:2]) {
				t.Errorf("row %d: call/put not told apart: %q", i, row)
			}
			_, side := TradeAtCode(tr.At)
			if !strings.Contains(lines[2+i], pxColor.Span(side, theme.ShadeNone).Open+" "+padRight(code, tapeCodeW)) {
				t.Errorf("row %d: code not in its side's tone", i)
			}
		}
	}
	block := plain[2+2]
	if !strings.HasPrefix(block, "◆ ") || !strings.Contains(lines[4], pxColor.Span(theme.ToneBlock, theme.ShadeNone).Open+"    250") {
		t.Errorf("block not marked: %q", block)
	}
	if strings.HasPrefix(plain[2], "◆") {
		t.Errorf("a 5-lot marked as a block: %q", plain[2])
	}
	// Nulls are dashes.
	if row := plain[2+7]; !strings.Contains(row, "      -      - ") {
		t.Errorf("null price and size: %q", row)
	}
}

func TestTapeShowsOnlyWhatFits(t *testing.T) {
	v := pxTrades()
	lines := Tape(v, 52, 5, pxColor)
	p := pxPlain(lines)
	if !strings.Contains(p, "11:30:50") || !strings.Contains(p, "11:30:44") || strings.Contains(p, "11:30:41") {
		t.Errorf("5 lines should show the 3 newest trades:\n%s", p)
	}
	v.Trades = nil
	if p := pxPlain(Tape(v, 52, 8, pxColor)); !strings.Contains(p, "no trades") {
		t.Errorf("empty tape: %s", p)
	}
	v.Focused = true
	if l := ansi.Strip(Tape(v, 52, 8, pxNoColor)[0]); !strings.HasPrefix(l, "▸ Time & Sales") {
		t.Errorf("focus not marked: %q", l)
	}
}

// The tape is drawn every frame: a handful of allocations, not one per cell.
func TestTapeAllocations(t *testing.T) {
	v := pxTrades()
	for len(v.Trades) < 40 {
		v.Trades = append(v.Trades, v.Trades...)
	}
	v.Trades = v.Trades[:40]
	n := testing.AllocsPerRun(50, func() { Tape(v, 70, 42, pxColor) })
	if n > 12 {
		t.Errorf("Tape allocates %v times a frame", n)
	}
}

// TestTapePausedTitle: a paused tape says so first in its title, with the
// prints above its top row and the key that resumes it, so that the
// narrowest tape keeps it.
func TestTapePausedTitle(t *testing.T) {
	v := pxTrades()
	v.Paused, v.Newer, v.ResumeKey, v.Filter, v.Held = true, 27, "g", "calls ≥10", 3867
	if l := ansi.Strip(Tape(v, 45, 5, pxNoColor)[0]); !strings.HasPrefix(l, "  Time & Sales · PAUSED 27 newer, g resumes") {
		t.Errorf("paused title: %q", l)
	}
	v.Paused = false
	if l := ansi.Strip(Tape(v, 80, 5, pxNoColor)[0]); strings.Contains(l, "PAUSED") || !strings.Contains(l, "3867 held") {
		t.Errorf("live title: %q", l)
	}
}

// TestTapeGreeksNameTheContract: with the IV, delta and premium columns
// the tape still names each print's contract whole, expiry first (and
// the root when the prints have several), and a line of headings names
// every column; where IV cannot fit, the title says so.
func TestTapeGreeksNameTheContract(t *testing.T) {
	v := pxTrades()
	v.Greeks = true
	for i := range v.Trades {
		v.Trades[i].IV, v.Trades[i].Delta = 0.221, 0.512
	}
	lines := pxPlainLines(Tape(v, 60, 8, pxNoColor))
	if h := lines[2]; !strings.Contains(h, "time") || !strings.Contains(h, "strike") || !strings.Contains(h, "exp") ||
		!strings.Contains(h, "price") || !strings.Contains(h, "size") || !strings.Contains(h, "IV") || !strings.Contains(h, "delta") {
		t.Errorf("headings %q", h)
	}
	if row := lines[3]; !strings.Contains(row, "Nov21") || !strings.Contains(row, " 22.1 ") || !strings.Contains(row, "0.512") {
		t.Errorf("first print %q: want its expiry, IV and delta", row)
	}
	if strings.Index(lines[2], "exp") != strings.Index(lines[3], "Nov21") {
		t.Errorf("the expiry heading is not over its column:\n%s\n%s", lines[2], lines[3])
	}
	// Two roots on screen: the root is part of the name.
	v.Trades[1].Root = "SPXW"
	if row := pxPlainLines(Tape(v, 70, 8, pxNoColor))[4]; !strings.Contains(row, "SPXW") || !strings.Contains(row, " 22.1 ") {
		t.Errorf("a print of another root %q", row)
	}
	narrow := pxPlainLines(Tape(v, 45, 8, pxNoColor))
	if !strings.Contains(narrow[0], "IV needs a wider tape") || !strings.Contains(narrow[3], "Nov21") {
		t.Errorf("45 wide:\n%s", strings.Join(narrow, "\n"))
	}
	v.Greeks = false
	if l := pxPlainLines(Tape(v, 60, 8, pxNoColor)); strings.Contains(l[2], "strike") {
		t.Errorf("headings without the greeks columns: %q", l[2])
	}
}

func pxPlainLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return out
}
