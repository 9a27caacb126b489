package ui

import (
	"strings"
	"testing"
)

// pxSink keeps results alive so the compiler cannot drop the work.
var pxSink []string

// pxTape40 is 40 trades: a full tape pane on a 160x48 terminal.
func pxTape40() *TapeView {
	v := pxTrades()
	for len(v.Trades) < 40 {
		v.Trades = append(v.Trades, v.Trades...)
	}
	v.Trades = v.Trades[:40]
	return v
}

func BenchmarkTape(b *testing.B) {
	v := pxTape40()
	b.ReportAllocs()
	for b.Loop() {
		pxSink = Tape(v, 70, 42, pxColor)
	}
}

func BenchmarkHeader(b *testing.B) {
	h := pxHeader()
	b.ReportAllocs()
	for b.Loop() {
		pxSink = Header(h, 160, pxColor)
	}
}

// BenchmarkHeaderPast is the header at its fullest: an open market with
// the figures from the store of past days, eleven segments on line 2.
func BenchmarkHeaderPast(b *testing.B) {
	h := pxHeaderPast()
	b.ReportAllocs()
	for b.Loop() {
		pxSink = Header(h, 250, pxColor)
	}
}

func BenchmarkStatus(b *testing.B) {
	s := pxStatus()
	b.ReportAllocs()
	for b.Loop() {
		pxSink = []string{Status(s, 160, pxColor)}
	}
}

func BenchmarkDetails(b *testing.B) {
	d := pxDetails()
	b.ReportAllocs()
	for b.Loop() {
		pxSink = Details(d, 60, 8, pxColor)
	}
}

func BenchmarkCalendar(b *testing.B) {
	v := pxCalendar()
	b.ReportAllocs()
	for b.Loop() {
		pxSink = Calendar(v, 60, 9, pxColor)
	}
}

// BenchmarkCompose is the frame's assembly alone: the 160x48 layout's
// panes (header, tabs, ladder, details, tape, calendar, status) as styled
// placeholder lines.
func BenchmarkCompose(b *testing.B) {
	l := NewLayout(160, 48, true, true)
	panes := pxPanes(l, pxColor)
	b.ReportAllocs()
	for b.Loop() {
		pxSink = []string{Compose(160, 48, panes, pxColor)}
	}
}

// BenchmarkPanesFrame is everything of a 160x48 frame but the ladder and
// the tabs (placeholders here; the ladder's own benchmarks cover them):
// header, details, tape, calendar and status drawn, then composed.
func BenchmarkPanesFrame(b *testing.B) {
	l := NewLayout(160, 48, true, true)
	h, d, tv, cv, s := pxHeader(), pxDetails(), pxTape40(), pxCalendar(), pxStatus()
	ladder := pxFill(l.Ladder, "L", pxColor)
	tabs := pxFill(l.Tabs, "T", pxColor)
	b.ReportAllocs()
	for b.Loop() {
		panes := [...]Pane{
			{l.Header, Header(h, l.Header.W, pxColor)},
			{l.Tabs, tabs},
			{l.Ladder, ladder},
			{l.Details, Details(d, l.Details.W, l.Details.H, pxColor)},
			{l.Tape, Tape(tv, l.Tape.W, l.Tape.H, pxColor)},
			{l.Calendar, Calendar(cv, l.Calendar.W, l.Calendar.H, pxColor)},
			{l.Status, []string{Status(s, l.Status.W, pxColor)}},
		}
		pxSink = []string{Compose(160, 48, panes[:], pxColor)}
	}
	if n := strings.Count(pxSink[0], "\n"); n != 47 {
		b.Fatalf("frame has %d lines", n+1)
	}
}
