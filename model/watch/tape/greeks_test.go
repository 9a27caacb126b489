package tape

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// TestNextGreeksFillsTheMostDashes: the budget asks one contract's greeks
// every few seconds while a busy tape brings several prints a second, so
// each request goes where it fills the most of the screen: the selected
// print's contract (the tape focused), else the ladder's selected
// contract, else the contract with the most prints on screen not yet
// asked for. A reply marks the prints it covered, with or without an IV,
// and the tape then says "-" (none) for those, "?" (to fetch) for the rest.
func TestNextGreeksFillsTheMostDashes(t *testing.T) {
	tp, q := newTestTape(1000)
	// Ten contracts (strike 595+seq%10, calls even); seq 5, 7 and 9 become
	// the 598 put's, which then has five prints on screen.
	trades := modeltest.SynthTrades(1, 20)
	for _, i := range []int{4, 6, 8} {
		osi, _ := api.FormatOSI("SPY", modeltest.SynthDay, api.Put, 598)
		trades[i].Strike, trades[i].OptionType, trades[i].Security = 598, api.Put, api.Some(osi)
	}
	tp.Apply(feed.TapeMsg{Query: q, From: 0, Trades: trades, At: modeltest.Now})
	tp.SetSize(62, 24)
	if _, _, _, ok := tp.NextGreeks(""); ok {
		t.Fatal("greeks asked with the columns hidden")
	}
	tp.greeks.on = true
	osiOf := func(strike float64, typ api.OptionType) string {
		s, _ := api.FormatOSI("SPY", modeltest.SynthDay, typ, strike)
		return s
	}
	check := func(what, prefer, want string, wantFrom int64) {
		t.Helper()
		o, from, _, ok := tp.NextGreeks(prefer)
		if !ok || o.String() != want || from != wantFrom {
			t.Errorf("%s: asked %s from %d (ok %v), want %s from %d", what, o, from, ok, want, wantFrom)
		}
	}
	check("most prints", "", osiOf(598, api.Put), 3)
	check("the ladder's", osiOf(604, api.Put), osiOf(604, api.Put), 19)
	tp.SetFocused(true) // the cursor on the newest print: seq 20, the 595 call
	check("the selected print's", osiOf(604, api.Put), osiOf(595, api.Call), 10)
	tp.SetFocused(false)

	// The 598 put's reply: an IV for seq 3 and 5, none for 7 (null), and
	// 9 and 13 not in it (the service had none).
	reply := []api.OptionTradeWithGreeks{}
	for _, tr := range trades {
		if tr.SeqNo == 3 || tr.SeqNo == 5 || tr.SeqNo == 7 {
			w := api.OptionTradeWithGreeks{Trade: api.Trade{Size: tr.Size, Price: tr.Price, SequenceNumber: tr.SeqNo}}
			if tr.SeqNo != 7 {
				w.IV, w.Delta = api.Some(0.2), api.Some(-0.4)
			}
			reply = append(reply, w)
		}
	}
	if !tp.ApplyGreeks(feed.TapeGreeksMsg{Query: q, OSI: osiOf(598, api.Put), From: 3, Trades: reply}) {
		t.Fatal("the reply was dropped")
	}
	if n := tp.GreeksFilled(); n != 2 {
		t.Errorf("%d prints filled, want 2", n)
	}
	for i := range tp.r.len() {
		e := tp.r.at(i)
		if e.tr.Strike == 598 && e.tr.Type == api.Put && (!e.tr.GreeksAsked || (e.tr.SeqNo == 3 || e.tr.SeqNo == 5) == math.IsNaN(e.tr.IV)) {
			t.Errorf("seq %d: asked %v IV %v", e.tr.SeqNo, e.tr.GreeksAsked, e.tr.IV)
		}
	}
	if o, _, _, _ := tp.NextGreeks(""); o.String() == osiOf(598, api.Put) {
		t.Error("the 598 put asked again with nothing new")
	}
	tp.View()
	screen := ansi.Strip(strings.Join(tp.View(), "\n"))
	if !strings.Contains(screen, "IV ? to fetch, - none") || !strings.Contains(screen, "20.0") {
		t.Errorf("the tape does not say why IVs are missing:\n%s", screen)
	}
}
