package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"chainwatch/api"
	"chainwatch/sandbox"
	"chainwatch/sandbox/market"
)

// listed returns an optionable stock of each listing the entitlements tell
// apart: Nasdaq (UTP) and NYSE (consolidated tape).
func listed(t *testing.T) (nasdaq, nyse string) {
	t.Helper()
	for _, s := range market.Default().All() {
		switch {
		case !s.Optionable || s.Kind != market.Stock:
		case s.Listing == market.Nasdaq && nasdaq == "":
			nasdaq = s.Symbol
		case s.Listing == market.NYSE && nyse == "":
			nyse = s.Symbol
		}
	}
	if nasdaq == "" || nyse == "" {
		t.Fatalf("the universe lacks an optionable Nasdaq (%q) or NYSE (%q) stock", nasdaq, nyse)
	}
	return nasdaq, nyse
}

func withEntitlements(list ...sandbox.Entitlement) func(*sandbox.Config) {
	return func(c *sandbox.Config) { c.Entitlements = append([]sandbox.Entitlement{}, list...) }
}

// Live and delayed time and sales need the data provider's subscription,
// historical requests none.
func TestDataEntitlementsTimeAndSales(t *testing.T) {
	t.Parallel()
	nasdaq, nyse := listed(t)
	e, day := newSessionEnv(t, nil, withEntitlements())
	d := day.String()
	window := "&min_time=10:00:00.000&max_time=10:00:10.000"
	osi := "SPX" + d[2:4] + d[5:7] + d[8:10] + "C05000000"
	for _, c := range []struct{ mode, path, query, want string }{
		{"live", pathTrades, "symbol=SPX&date=" + d, "option-trades in live and delayed mode requires the opra subscription"},
		{"delayed", pathTrades, "symbol=" + osi + "&date=" + d, "option-trades in live and delayed mode requires the opra subscription"},
		{"live", pathTAQ, "symbol=" + nasdaq + "&date=" + d + window, "trades-and-quotes in live and delayed mode requires the utp subscription"},
		{"delayed", pathTAQ, "symbol=" + nyse + "&date=" + d + window, "trades-and-quotes in live and delayed mode requires the consolidated_tape subscription"},
		{"live", pathTAQ, "symbol=" + osi + "&date=" + d + window, "trades-and-quotes in live and delayed mode requires the opra subscription"},
		{"live", pathGreeks, "symbol=" + osi + "&date=" + d + window, "option-trades-with-greeks in live and delayed mode requires the opra subscription"},
	} {
		resp, body := e.call(http.MethodGet, e.url(c.mode, c.path, c.query), nil, nil)
		wantError(t, c.path+"?"+c.query, resp, body, http.StatusBadRequest, c.want)
	}
	for _, c := range []struct{ path, query string }{
		{pathTrades, "symbol=SPX&limit=5&date=" + pastDay},
		{pathTAQ, "symbol=" + nasdaq + "&date=" + pastDay + window},
	} {
		if resp, body := e.getLive(c.path, c.query); resp.StatusCode != http.StatusOK {
			t.Errorf("historical %s?%s without subscriptions: %d %.100q, want 200", c.path, c.query, resp.StatusCode, body)
		}
	}
}

// Subscription fields are null for live and delayed quotes without the
// subscription, and never for historical ones.
func TestDataEntitlementsNulls(t *testing.T) {
	t.Parallel()
	nasdaq, nyse := listed(t)
	symbols := func(e *dataEnv, date string) map[string]api.Symbol {
		t.Helper()
		resp, body := e.getLive(pathUnderlying, "symbols="+nasdaq+","+nyse+"&date="+date)
		var list []api.Symbol
		if err := json.Unmarshal([]byte(body), &list); resp.StatusCode != http.StatusOK || err != nil || len(list) != 2 {
			t.Fatalf("underlying-quotes: %d %v %.200q", resp.StatusCode, err, body)
		}
		return map[string]api.Symbol{list[0].Symbol: list[0], list[1].Symbol: list[1]}
	}

	none, day := newSessionEnv(t, nil, withEntitlements())
	for _, date := range []string{day.String(), pastDay} {
		for sym, s := range symbols(none, date) {
			u := s.Underlying
			nulled := !u.Bid.Valid && !u.Ask.Valid && !u.Mid.Valid && !u.LastTradePrice.Valid && !u.Open.Valid && !u.BidSize.Valid
			if historical := date == pastDay; nulled == historical || !u.PrevDayClose.Valid {
				t.Errorf("%s on %s without subscriptions: bid %v mid %v prev close %v", sym, date, u.Bid, u.Mid, u.PrevDayClose)
			}
		}
	}
	resp, body := none.getLive(pathChain, "symbol=SPX&max_strike=0.01&date="+day.String())
	var chain api.SymbolWithOptions
	if err := json.Unmarshal([]byte(body), &chain); resp.StatusCode != http.StatusOK || err != nil || chain.Bid.Valid || chain.High.Valid {
		t.Errorf("live chain without subscriptions: %d %v, underlying bid %v high %v", resp.StatusCode, err, chain.Bid, chain.High)
	}

	noUTP, day := newSessionEnv(t, nil, withEntitlements(sandbox.ConsolidatedTape, sandbox.OPRA))
	got := symbols(noUTP, day.String())
	if n := got[nasdaq].Underlying; n.Mid.Valid || !n.Bid.Valid {
		t.Errorf("Nasdaq %s without UTP: mid %v bid %v, want the mid null only", nasdaq, n.Mid, n.Bid)
	}
	if y := got[nyse].Underlying; !y.Mid.Valid || !y.Bid.Valid {
		t.Errorf("NYSE %s without UTP: mid %v bid %v, want both", nyse, y.Mid, y.Bid)
	}

	noTape, day := newSessionEnv(t, nil, withEntitlements(sandbox.UTP, sandbox.OPRA))
	for _, date := range []string{day.String(), pastDay} {
		resp, body := noTape.getLive(pathTrades, "symbol=SPX&limit=20&date="+date)
		var trades []api.OptionTrade
		if err := json.Unmarshal([]byte(body), &trades); resp.StatusCode != http.StatusOK || err != nil || len(trades) == 0 {
			t.Fatalf("option-trades on %s: %d %v", date, resp.StatusCode, err)
		}
		for _, tr := range trades {
			if historical := date == pastDay; tr.UnderlyingBid.Valid != historical || tr.UnderlyingAsk.Valid != historical ||
				(tr.CancelFlag == api.TradeNormal && !tr.Price.Valid) {
				t.Fatalf("trade on %s without the tape: underlying bid %v ask %v price %v", date, tr.UnderlyingBid, tr.UnderlyingAsk, tr.Price)
			}
		}
	}
}

// ParseEntitlements reads the --entitlements flag's values.
func TestParseEntitlements(t *testing.T) {
	t.Parallel()
	if got, err := sandbox.ParseEntitlements("none"); err != nil || got == nil || len(got) != 0 {
		t.Errorf("none: %v %v, want an empty non-nil list", got, err)
	}
	if got, err := sandbox.ParseEntitlements(" opra, utp,opra "); err != nil || len(got) != 2 || got[0] != sandbox.OPRA || got[1] != sandbox.UTP {
		t.Errorf("opra, utp,opra: %v %v", got, err)
	}
	for _, bad := range []string{"", "cta", "opra,", "NONE"} {
		if _, err := sandbox.ParseEntitlements(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
