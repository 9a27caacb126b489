package market

import (
	"slices"
	"testing"

	"chainwatch/api"
	"chainwatch/market"
)

func TestUniverse(t *testing.T) {
	u := Default()
	all := u.All()
	if !slices.IsSortedFunc(all, func(a, b *Security) int {
		if a.Symbol < b.Symbol {
			return -1
		}
		return 1
	}) {
		t.Error("All is not sorted by symbol")
	}
	roots := map[string]string{}
	optionable, plain := 0, 0
	for _, s := range all {
		if s.Optionable {
			optionable++
		} else {
			plain++
		}
		if s.Optionable != (len(s.Roots) > 0) {
			t.Errorf("%s: optionable %v with roots %v", s.Symbol, s.Optionable, s.Roots)
		}
		for _, r := range s.Roots {
			if other, dup := roots[r]; dup {
				t.Errorf("root %s of %s and %s", r, s.Symbol, other)
			}
			roots[r] = s.Symbol
			if got, ok := u.ByRoot(r); !ok || got != s {
				t.Errorf("ByRoot(%s) = %v", r, got)
			}
		}
		if s.Name == "" || s.Sector == "" || s.Price <= 0 || s.Vol < 0.05 || s.Vol > 1.5 {
			t.Errorf("%s: implausible record %+v", s.Symbol, *s)
		}
		if !market.IsTradingDay(s.Since) || s.Since > Anchor {
			t.Errorf("%s: since %v", s.Symbol, s.Since)
		}
		if !slices.Contains([]int{0, 1, 2, 4, 12}, s.DivFreq) || (s.DivFreq > 0) != (s.DivYield > 0) && s.Kind != Index {
			t.Errorf("%s: dividends %v a year at %v", s.Symbol, s.DivFreq, s.DivYield)
		}
		if (s.Kind == Stock) != (s.EPS != 0) {
			t.Errorf("%s: EPS %v for a %v", s.Symbol, s.EPS, s.Kind)
		}
		if (s.Kind == Index) != (s.AvgVolume == 0) {
			t.Errorf("%s: average volume %v for a %v", s.Symbol, s.AvgVolume, s.Kind)
		}
		if got, ok := u.Lookup(s.Symbol); !ok || got != s {
			t.Errorf("Lookup(%s) failed", s.Symbol)
		}
	}
	if optionable < 100 || plain < 5 {
		t.Errorf("%d optionable and %d other symbols, want >= 100 and >= 5", optionable, plain)
	}
	if len(u.Optionable()) != optionable {
		t.Error("Optionable disagrees with All")
	}
	if _, ok := u.Lookup("aapl"); ok {
		t.Error("Lookup must be case sensitive")
	}
	for root, sym := range map[string]string{"SPXW": "SPX", "SPX": "SPX", "NDXP": "NDX", "VIXW": "VIX", "BRKB": "BRK.B", "AAPL": "AAPL"} {
		if s, ok := u.ByRoot(root); !ok || s.Symbol != sym {
			t.Errorf("ByRoot(%s) = %v, want %s", root, s, sym)
		}
	}
	want := map[string]struct {
		l     Listing
		k     Kind
		since api.Date
	}{
		"SPX": {Cboe, Index, 20000103}, "SPY": {Arca, ETF, 20000103}, "QQQ": {Nasdaq, ETF, 20000103},
		"META": {Nasdaq, Stock, 20120518}, "TSLA": {Nasdaq, Stock, 20100629}, "JPM": {NYSE, Stock, 20000103},
	}
	for sym, w := range want {
		s, _ := u.Lookup(sym)
		if s.Listing != w.l || s.Kind != w.k || s.Since != w.since {
			t.Errorf("%s: %v %v since %v", sym, s.Listing, s.Kind, s.Since)
		}
	}
	if Stock.String() != "stock" || ETF.String() != "etf" || Index.String() != "index" {
		t.Error("Kind names")
	}
}

func TestReference(t *testing.T) {
	ex := Exchanges()
	codes := map[string]bool{}
	for i, e := range ex {
		if int(e.ID) != i+1 || e.Code == "" || e.Name == "" || codes[e.Code] {
			t.Errorf("exchange %d: %+v", i, e)
		}
		codes[e.Code] = true
	}
	ids := append(slices.Clone(OptionExchanges), StockExchanges...)
	slices.Sort(ids)
	if len(ids) != len(ex) || int(ids[0]) != 1 || int(ids[len(ids)-1]) != len(ex) || len(slices.Compact(ids)) != len(ex) {
		t.Errorf("OptionExchanges and StockExchanges do not partition the table: %v", ids)
	}
	ex[0].Name = "changed"
	if Exchanges()[0].Name == "changed" {
		t.Error("Exchanges must return a copy")
	}
	conds := MessageConditions()
	byID := map[uint8]api.MessageCondition{}
	for _, c := range conds {
		if _, dup := byID[c.ID]; dup || c.Code == "" || c.Description == "" {
			t.Errorf("condition %+v", c)
		}
		byID[c.ID] = c
	}
	for _, id := range []uint8{CondRegular, CondSweep, CondBlock, CondMultiLeg, CondLate, CondCanceled, CondOpening} {
		if byID[id].Type != api.ConditionTrade {
			t.Errorf("trade condition %d: %+v", id, byID[id])
		}
	}
	for _, id := range []uint8{QuoteRegular, QuoteFast} {
		if byID[id].Type != api.ConditionQuote {
			t.Errorf("quote condition %d: %+v", id, byID[id])
		}
	}
}
