package watchlist

import (
	"math"
	"slices"
	"testing"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// TestFetchOneRequestForAllSymbols: ten symbols are one underlying-quotes
// request and one calendar request, as the sandbox counts them, and the
// page has a row for each (the unknown one marked).
func TestFetchOneRequestForAllSymbols(t *testing.T) {
	var reqs modeltest.Requests
	sh := modeltest.Common(modeltest.Now)
	sh.Client = modeltest.StartSandbox(t, sandbox.Config{Logger: reqs.Logger()})
	symbols := []string{"SPY", "QQQ", "IWM", "SPX", "VIX", "AAPL", "MSFT", "NVDA", "ZZZZ", "TSLA"}
	m := New(sh, Options{Symbols: symbols})
	m.SetQuery(q1)
	qm := sh.Source().Quotes(t.Context(), q1, m.Fetchable())
	if qm.Err != nil {
		t.Fatal(qm.Err)
	}
	em := sh.Source().Events(t.Context(), q1, m.NeedEvents())
	if em.Err != nil {
		t.Fatal(em.Err)
	}
	if n := reqs.Count("/underlying-quotes"); n != 1 {
		t.Fatalf("%d underlying-quotes requests for %d symbols (paths %v)", n, len(symbols), reqs.Paths())
	}
	if n := reqs.Count("/calendar"); n != 1 {
		t.Fatalf("%d calendar requests", n)
	}
	if qm.Resp.Cost != api.Cost(api.EndpointUnderlyingQuotes, api.Live, false) {
		t.Fatalf("cost %d", qm.Resp.Cost)
	}
	m.Apply(qm)
	m.ApplyEvents(em)
	if got := m.Missing(); !slices.Equal(got, []string{"ZZZZ"}) {
		t.Fatalf("missing %v", got)
	}
	for _, s := range symbols {
		e := m.rows[s]
		if s != "ZZZZ" && (!e.loaded || math.IsNaN(e.row.Price)) {
			t.Errorf("%s: loaded %v price %v", s, e.loaded, e.row.Price)
		}
	}
	// The dividend payers have an ex-date ahead, a stock its next report.
	day := q1.Day(modeltest.Now)
	if n := m.rows["AAPL"].row.Next; n.Earnings < day || n.ExDividend < day || n.Earnings == 0 {
		t.Errorf("AAPL's next events %+v", n)
	}
	// The next refresh asks only for what the service knows.
	if got := m.Fetchable(); len(got) != len(symbols)-1 || slices.Contains(got, "ZZZZ") {
		t.Fatalf("fetchable %v", got)
	}
}
