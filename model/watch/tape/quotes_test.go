package tape

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// TestQuoteIVFillsTape runs on the sandbox mid-session: the tape's first
// page (the last 15 minutes of SPY) and the ladder's answer for the
// nearest expiry. Every print of that expiry within the window of its
// quote takes the quote's IV and delta, marked as the quote's, with no
// request; older prints and other expiries wait for their own. A
// contract's own greeks, once fetched, replace the quote's, and stay
// close to them. The tape then says which IVs are the quote's.
func TestQuoteIVFillsTape(t *testing.T) {
	sh := modeltest.SandboxCommon(t)
	ctx := context.Background()
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	tp := New(sh, 50000, 100)
	tp.SetQuery(q)
	page := sh.Source().Tape(ctx, q, feed.ShownDay(q, sh.Now()), 0)
	if page.Err != nil || !tp.Apply(page) || tp.Held() < 100 {
		t.Fatalf("first page: %d trades, %v", len(page.Trades), page.Err)
	}
	whole := sh.Source().Chain(ctx, q, 0)
	if whole.Err != nil || len(whole.Chain.Options) == 0 {
		t.Fatalf("the whole chain: %v", whole.Err)
	}
	near := whole.Chain.Options[0].Expiry
	for _, o := range whole.Chain.Options {
		near = min(near, o.Expiry)
	}
	ladder := sh.Source().Chain(ctx, q, near)
	if ladder.Err != nil {
		t.Fatal(ladder.Err)
	}
	ivOf := map[string]api.OptionData{}
	var quoted api.TimeOfDay
	for _, o := range ladder.Chain.Options {
		ivOf[o.Option], quoted = o, max(quoted, o.Timestamp)
	}

	tp.SetQuotes(feed.ChainMsg{Query: feed.Query{Gen: 2}, Chain: ladder.Chain}) // another query's: ignored
	if tp.GreeksFilled() != 0 {
		t.Fatal("another query's quotes filled the tape")
	}
	tp.SetQuotes(ladder)
	window := api.TimeOfDay(config.TapeQuoteIVWindow.Milliseconds())
	var near5, filled, old int
	for i := range tp.r.len() {
		e := tp.r.at(i)
		osi := api.OSI{Root: e.tr.Root, Expiry: e.tr.Expiry, Type: e.tr.Type, StrikeMilli: e.strikeMilli}.String()
		o, listed := ivOf[osi]
		switch {
		case e.tr.Expiry != near || !listed:
			if !math.IsNaN(e.tr.IV) {
				t.Fatalf("seq %d of %s, not on the ladder, has IV %v", e.tr.SeqNo, osi, e.tr.IV)
			}
		case quoted-e.tr.Time > window:
			old++
			if !math.IsNaN(e.tr.IV) {
				t.Fatalf("seq %d at %s, past the window of the quote at %s, has IV %v", e.tr.SeqNo, e.tr.Time, quoted, e.tr.IV)
			}
		default:
			near5++
			if o.IV.Valid {
				if !e.tr.IVQuote || e.tr.IV != o.IV.V || e.tr.Delta != o.Delta.V {
					t.Fatalf("seq %d of %s: IV %v delta %v (quote's %v), quote %v %v", e.tr.SeqNo, osi, e.tr.IV, e.tr.Delta, e.tr.IVQuote, o.IV, o.Delta)
				}
				filled++
			}
		}
	}
	// Far from the money a 0DTE quote may have no IV (no bid, too wide):
	// those prints wait for their own, as every print did before.
	if near5 < 20 || old == 0 || filled*3 < near5*2 {
		t.Fatalf("%d prints of %s in the window, %d filled, %d older", near5, near, filled, old)
	}

	// New prints take the same quotes as they arrive.
	clone := api.OptionTrade(page.Trades[len(page.Trades)-1])
	for _, o := range ladder.Chain.Options {
		if o.IV.Valid {
			clone.Root, clone.Expiry, clone.OptionType, clone.Strike, clone.Security = o.Root, o.Expiry, o.OptionType, o.Strike, api.Some(o.Option)
			break
		}
	}
	clone.SeqNo, clone.Timestamp = tp.NextFrom(), quoted
	if !tp.Apply(feed.TapeMsg{Query: q, From: tp.NextFrom(), Trades: []api.OptionTrade{clone}, At: sh.Now()}) || !tp.r.at(0).tr.IVQuote {
		t.Fatalf("a new print of %s has no quote IV: %+v", clone.Security.V, tp.r.at(0).tr)
	}

	// The greeks requests skip what the quotes filled.
	tp.greeks.on = true
	tp.SetSize(62, 40)
	if o, _, _, ok := tp.NextGreeks(""); ok && o.Expiry == near {
		for _, v := range tp.vis {
			if v.Expiry == near && v.Root == o.Root && v.Type == o.Type && math.Round(v.Strike*1000) == float64(o.StrikeMilli) && math.IsNaN(v.IV) {
				goto asked // it has a print the quotes left
			}
		}
		t.Fatalf("asked for %s, whose prints on screen all have the quote's IV", o)
	asked:
	}
	screen := ansi.Strip(strings.Join(tp.View(), "\n"))
	if !strings.Contains(screen, "~ quote's") || !strings.Contains(screen, " ~") {
		t.Fatalf("the tape does not mark the quote's IVs:\n%s", screen)
	}

	// The busiest contract's own greeks replace the quote's, near them.
	count := map[string]int{}
	for i := range tp.r.len() {
		if e := tp.r.at(i); e.tr.IVQuote {
			count[api.OSI{Root: e.tr.Root, Expiry: e.tr.Expiry, Type: e.tr.Type, StrikeMilli: e.strikeMilli}.String()]++
		}
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return count[b] - count[a] })
	busy, _ := api.ParseOSI(keys[0])
	from, minT := tp.oldestAfter(busy, 0)
	g := sh.Source().TapeGreeks(ctx, q, busy, feed.ShownDay(q, sh.Now()), from, minT)
	if g.Err != nil || len(g.Trades) == 0 || !tp.ApplyGreeks(g) {
		t.Fatalf("greeks of %s: %d, %v", busy, len(g.Trades), g.Err)
	}
	var own int
	for i := range tp.r.len() {
		e := tp.r.at(i)
		if e.tr.Root != busy.Root || e.tr.Expiry != busy.Expiry || e.tr.Type != busy.Type || e.strikeMilli != busy.StrikeMilli || e.tr.SeqNo >= clone.SeqNo {
			continue
		}
		if e.tr.IVQuote && !math.IsNaN(e.tr.IV) {
			continue // the service had none for it: the quote's stays
		}
		own++
		if d := math.Abs(e.tr.IV - ivOf[keys[0]].IV.V); d > 0.05 {
			t.Errorf("seq %d of %s: its own IV %.4f, the quote's %.4f", e.tr.SeqNo, busy, e.tr.IV, ivOf[keys[0]].IV.V)
		}
	}
	t.Logf("%d prints of %s within the window, %d with the quote's IV, %d older; %d of %s with their own", near5, near, filled, old, own, busy)
	if own == 0 {
		t.Fatalf("no print of %s took its own IV", busy)
	}
}
