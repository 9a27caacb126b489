package strategy

import (
	"math"
	"strings"
	"testing"

	"chainwatch/api"
)

var testStrikes = []float64{80, 85, 90, 95, 100, 105, 110, 115, 120}

func cursor(k float64, call bool) Cursor {
	return Cursor{Symbol: "SPY", Root: "SPY", Expiry: testExp, Next: api.NewDate(2027, 1, 15), Strikes: testStrikes, Strike: k, Call: call, Width: 5}
}

// filled builds t and gives its legs the fills.
func filled(t *testing.T, tpl Template, c Cursor, fills ...float64) Strategy {
	t.Helper()
	st, err := Build(tpl, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(fills) != len(st.Legs) {
		t.Fatalf("%s: %d legs: %s", tpl, len(st.Legs), st.String())
	}
	for i := range st.Legs {
		st.Legs[i].Price = fills[i]
	}
	return st
}

func TestTemplatesClosedForms(t *testing.T) {
	// Vertical: max profit is the width less the debit.
	st := filled(t, Vertical, cursor(100, true), 4, 1.5)
	f := st.Analyze(flat(st, 100, 0.2))
	debit := 4 - 1.5
	near(t, "vertical max profit", f.MaxProfit, (5-debit)*100)
	near(t, "vertical max loss", f.MaxLoss, -debit*100)
	near(t, "vertical breakeven", f.Breakevens[0], 100+debit)

	// A put vertical goes down from the cursor.
	st = filled(t, Vertical, cursor(100, false), 3, 1)
	if st.Legs[1].Strike != 95 || st.Legs[1].Qty != -1 {
		t.Fatalf("put vertical %s", st.String())
	}

	// Straddle: breakevens at strike ± debit.
	st = filled(t, Straddle, cursor(100, true), 3, 3.5)
	f = st.Analyze(flat(st, 100, 0.2))
	if len(f.Breakevens) != 2 {
		t.Fatalf("straddle breakevens %v", f.Breakevens)
	}
	near(t, "straddle low", f.Breakevens[0], 100-6.5)
	near(t, "straddle high", f.Breakevens[1], 100+6.5)

	// Iron condor: max loss is the wing less the credit.
	st = filled(t, IronCondor, cursor(100, true), 0.5, 1.5, 1.4, 0.4)
	f = st.Analyze(flat(st, 100, 0.2))
	credit := 1.5 + 1.4 - 0.5 - 0.4
	near(t, "condor max loss", f.MaxLoss, -(5-credit)*100)
	near(t, "condor max profit", f.MaxProfit, credit*100)

	// Strangle and butterfly shapes.
	st = filled(t, Strangle, cursor(100, true), 1, 1)
	if st.Legs[0].Strike != 95 || st.Legs[1].Strike != 105 {
		t.Fatalf("strangle %s", st.String())
	}
	st = filled(t, Butterfly, cursor(100, true), 8, 4.5, 2)
	f = st.Analyze(flat(st, 100, 0.2))
	near(t, "butterfly max profit", f.MaxProfit, (5-1)*100)

	// Covered call: the underlying as a leg.
	st = filled(t, CoveredCall, cursor(100, true), 100, 2) // the call 5 above
	f = st.Analyze(flat(st, 100, 0.2))
	near(t, "covered call max profit", f.MaxProfit, (105-100+2)*100)
	near(t, "covered call breakeven", f.Breakevens[0], 98)

	// Calendar and diagonal: the long leg on the next expiry.
	st = filled(t, Calendar, cursor(100, true), 2, 4)
	if st.Legs[1].Expiry != api.NewDate(2027, 1, 15) || st.Legs[0].Strike != st.Legs[1].Strike {
		t.Fatalf("calendar %s", st.String())
	}
	st = filled(t, Diagonal, cursor(100, true), 1.5, 4)
	if st.Legs[0].Strike != 105 || st.Legs[1].Strike != 100 {
		t.Fatalf("diagonal %s", st.String())
	}
}

func TestTemplateRefusals(t *testing.T) {
	if _, err := Build(IronCondor, cursor(115, true)); err == nil || !strings.Contains(err.Error(), "past the listed strikes") {
		t.Fatal(err)
	}
	c := cursor(100, true)
	c.Next = 0
	if _, err := Build(Calendar, c); err == nil || !strings.Contains(err.Error(), "needs an expiry after") {
		t.Fatal(err)
	}
}

func TestNotListed(t *testing.T) {
	chain := &api.SymbolWithOptions{}
	chain.LastTradePrice = api.Float{V: 100, Valid: true}
	for _, k := range []float64{95, 100, 105} {
		osi, _ := api.FormatOSI("SPY", testExp, api.Call, k)
		chain.Options = append(chain.Options, api.OptionData{Root: "SPY", Expiry: testExp, Strike: k, OptionType: api.Call, Option: osi,
			Bid: api.Float{V: 1, Valid: true}, Ask: api.Float{V: 1.2, Valid: true}})
	}
	st := legsOf(t, "SPY 2026-12-18 +C100 -C103")
	_, err := MarketOf(&st, chain, testNow)
	if err == nil || err.Error() != "SPY -1 C103 2026-12-18 is not listed; the nearest listed is C105 2026-12-18" {
		t.Fatal(err)
	}
	st = legsOf(t, "SPY 2026-12-18 +C100 -C105")
	m, err := MarketOf(&st, chain, testNow)
	if err != nil || m.Spot != 100 || math.Abs(m.Quotes[0].MidPrice()-1.1) > 1e-12 {
		t.Fatal(m, err)
	}
}

// wideCursor is a ladder from 50 to 150 by 5 with the underlying at 101
// and the cursor far from it, at 60, with deltas that fall 1/60 a point.
func wideCursor() Cursor {
	c := Cursor{Symbol: "SPY", Root: "SPY", Expiry: testExp, Next: api.NewDate(2027, 1, 15), Spot: 101, Strike: 60, Call: true}
	for k := 50.0; k <= 150; k += 5 {
		d := math.Min(math.Max(0.5-(k-100)/60, 0.01), 0.99)
		c.Strikes = append(c.Strikes, k)
		c.CallDelta = append(c.CallDelta, d)
		c.PutDelta = append(c.PutDelta, d-1)
	}
	return c
}

// TestTemplatesCentredAtWidth: a template is centred on the strike
// nearest the underlying, not the cursor, at the trader's width (five
// strikes when none is chosen) or, for a condor's, a strangle's and a
// covered call's short strikes, at the chosen delta.
func TestTemplatesCentredAtWidth(t *testing.T) {
	for _, c := range []struct {
		tpl          Template
		width, delta float64
		call         bool
		want         string
	}{
		{Vertical, 0, 0, true, "SPY +1xSPY261218C00100000 -1xSPY261218C00125000"},
		{Vertical, 10, 0, true, "SPY +1xSPY261218C00100000 -1xSPY261218C00110000"},
		{Vertical, 5, 0, false, "SPY +1xSPY261218P00100000 -1xSPY261218P00095000"},
		{Vertical, 2, 0, true, "SPY +1xSPY261218C00100000 -1xSPY261218C00105000"}, // narrower than a strike: the next
		{Straddle, 0, 0, true, "SPY +1xSPY261218P00100000 +1xSPY261218C00100000"},
		{Strangle, 10, 0, true, "SPY +1xSPY261218P00090000 +1xSPY261218C00110000"},
		{Strangle, 10, 0.16, true, "SPY +1xSPY261218P00080000 +1xSPY261218C00120000"},
		{IronCondor, 5, 0.16, true, "SPY +1xSPY261218P00075000 -1xSPY261218P00080000 -1xSPY261218C00120000 +1xSPY261218C00125000"},
		{IronCondor, 10, 0.25, true, "SPY +1xSPY261218P00075000 -1xSPY261218P00085000 -1xSPY261218C00115000 +1xSPY261218C00125000"},
		{IronCondor, 5, 0, true, "SPY +1xSPY261218P00090000 -1xSPY261218P00095000 -1xSPY261218C00105000 +1xSPY261218C00110000"},
		{Butterfly, 10, 0, true, "SPY +1xSPY261218C00090000 -2xSPY261218C00100000 +1xSPY261218C00110000"},
		{Calendar, 0, 0, false, "SPY -1xSPY261218P00100000 +1xSPY270115P00100000"},
		{Diagonal, 5, 0, true, "SPY -1xSPY261218C00105000 +1xSPY270115C00100000"},
		{CoveredCall, 5, 0.30, true, "SPY +100xSPY -1xSPY261218C00110000"},
	} {
		cur := wideCursor()
		cur.Width, cur.Delta, cur.Call = c.width, c.delta, c.call
		st, err := Build(c.tpl, cur)
		if err != nil {
			t.Errorf("%s: %v", c.tpl, err)
			continue
		}
		if got := st.String(); got != c.want {
			t.Errorf("%s width %v delta %v:\n got %s\nwant %s", c.tpl, c.width, c.delta, got, c.want)
		}
		if got := st.Name(); got != c.tpl.String() {
			t.Errorf("%s built is named %q", c.tpl, got)
		}
	}
	// No underlying price: the cursor's strike is the centre.
	cur := wideCursor()
	cur.Spot, cur.Width = math.NaN(), 5
	if st, err := Build(Straddle, cur); err != nil || st.Legs[0].Strike != 60 {
		t.Fatalf("%v %v", st.String(), err)
	}
	// Deltas unknown: the width from the money.
	cur = wideCursor()
	cur.CallDelta, cur.Width, cur.Delta = nil, 10, 0.16
	if st, err := Build(Strangle, cur); err != nil || st.Legs[1].Strike != 110 || st.Legs[0].Strike != 80 {
		t.Fatalf("%v %v", st.String(), err)
	}
	// Too wide for the listed strikes.
	cur = wideCursor()
	cur.Width = 60
	if _, err := Build(Vertical, cur); err == nil || !strings.Contains(err.Error(), "past the listed strikes") {
		t.Fatal(err)
	}
}
