package theme

import (
	"strings"
	"testing"
)

func TestSpansCarryColourOnlyWithColour(t *testing.T) {
	for _, p := range []Palette{Dark(), Light(), ColorBlind(true), ColorBlind(false)} {
		s := New(p, false)
		sp := s.Span(ToneUp, ShadeITM)
		if !strings.Contains(sp.Open, "38;2;") || !strings.Contains(sp.Open, "48;2;") {
			t.Errorf("%s: up on ITM should set a foreground and a background: %q", p.Name, sp.Open)
		}
		if sp.Close == "" {
			t.Errorf("%s: a coloured span must reset", p.Name)
		}
	}
	s := New(Dark(), true)
	for to := Tone(0); to < NumTones; to++ {
		for sh := Shade(0); sh < NumShades; sh++ {
			sp := s.Span(to, sh)
			if strings.Contains(sp.Open, "38;") || strings.Contains(sp.Open, "48;") {
				t.Fatalf("NO_COLOR span %d/%d has a colour: %q", to, sh, sp.Open)
			}
		}
	}
	if sp := s.Span(ToneText, ShadeCursor); !strings.Contains(sp.Open, "7") {
		t.Errorf("without colour the cursor must still show (reverse): %q", sp.Open)
	}
}

func TestColorBlindAvoidsRedGreenPairs(t *testing.T) {
	for _, dark := range []bool{true, false} {
		p := ColorBlind(dark)
		std := ByName(dark, false)
		if p.Up == std.Up || p.Down == std.Down || p.AskSide == std.AskSide || p.Good == std.Good {
			t.Errorf("colour-blind palette (dark=%v) keeps a red/green role of the standard one", dark)
		}
	}
}

func TestWrap(t *testing.T) {
	sp := Span{Open: "<", Close: ">"}
	var b strings.Builder
	sp.Append(&b, "x")
	if got := sp.Wrap("x"); got != "<x>" || b.String() != "<x>" {
		t.Fatalf("Wrap/Append = %q/%q", got, b.String())
	}
}
