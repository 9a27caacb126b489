package api_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// TestSandboxEveryEndpoint calls every endpoint live, delayed and for a
// historical day, in JSON and in XML, and requires both formats to decode to
// the same answer, with the points headers on each.
func TestSandboxEveryEndpoint(t *testing.T) {
	d := startDataSandbox(t, sandbox.Config{})
	ctx := context.Background()
	chains := map[string]*api.SymbolWithOptions{}
	for _, run := range []struct {
		name string
		mode api.Mode
		date string
	}{{"live", api.Live, today}, {"delayed", api.Delayed, today}, {"historical", api.Live, yesterday}} {
		t.Run(run.name, func(t *testing.T) {
			m, date := run.mode, run.date
			chain := sameInBothFormats(t, d, m, "chain", func(c *api.Client) (*api.SymbolWithOptions, *api.Response, error) {
				return c.OptionAndUnderlyingQuotes(ctx, api.OptionQuotesParams{Symbol: "AAPL", Date: date})
			})
			if len(chain.Options) == 0 || chain.Symbol != "AAPL" {
				t.Fatalf("chain: %d options for %q", len(chain.Options), chain.Symbol)
			}
			chains[run.name] = chain
			if historical := date != today; chain.ImpliedUnderlyingMid.Valid == historical {
				t.Errorf("implied_underlying_mid valid=%v for historical=%v", chain.ImpliedUnderlyingMid.Valid, historical)
			}
			syms := sameInBothFormats(t, d, m, "underlying-quotes", func(c *api.Client) ([]api.Symbol, *api.Response, error) {
				return c.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"SPX", "AAPL", "QQQ"}, Date: date})
			})
			if len(syms) != 3 || syms[0].Symbol != "SPX" || syms[2].Symbol != "QQQ" {
				t.Errorf("underlying-quotes: %+v", syms)
			}
			trades := sameInBothFormats(t, d, m, "option-trades", func(c *api.Client) ([]api.OptionTrade, *api.Response, error) {
				return c.OptionTrades(ctx, api.OptionTradesParams{Symbol: "AAPL", Date: date, Limit: api.Ptr(500)})
			})
			if len(trades) == 0 {
				t.Fatal("option-trades: none")
			}
			osi := trades[0].Security.V
			taq := sameInBothFormats(t, d, m, "trades-and-quotes", func(c *api.Client) ([]api.TAQRecord, *api.Response, error) {
				return c.TradesAndQuotes(ctx, api.TradesAndQuotesParams{Symbol: osi, Date: date, MinTime: "09:30:00.000", MaxTime: "16:00:00.000", Limit: api.Ptr(2000)})
			})
			stock := sameInBothFormats(t, d, m, "trades-and-quotes stock", func(c *api.Client) ([]api.TAQRecord, *api.Response, error) {
				return c.TradesAndQuotes(ctx, api.TradesAndQuotesParams{Symbol: "AAPL", Date: date, MinTime: "10:00:00.000", MaxTime: "10:05:00.000"})
			})
			if len(taq) == 0 || len(stock) == 0 {
				t.Errorf("trades-and-quotes: %d option records, %d stock records", len(taq), len(stock))
			}
			greeks := sameInBothFormats(t, d, m, "option-trades-with-greeks", func(c *api.Client) ([]api.OptionTradeWithGreeks, *api.Response, error) {
				return c.OptionTradesWithGreeks(ctx, api.OptionTradesWithGreeksParams{Symbol: osi, Date: date, MinTime: "09:30:00.000", MaxTime: "16:00:00.000"})
			})
			if len(greeks) == 0 {
				t.Error("option-trades-with-greeks: none")
			}
			events := sameInBothFormats(t, d, m, "calendar", func(c *api.Client) ([]api.CalendarEvent, *api.Response, error) {
				return c.Calendar(ctx, api.CalendarParams{Symbols: []string{"AAPL", "SPY"}, StartDate: "2025-01-01", EndDate: "2027-12-31"})
			})
			kinds := map[api.EventKind]int{}
			for _, e := range events {
				kinds[e.Kind]++
			}
			if kinds[api.KindEarnings] == 0 || kinds[api.KindDividend] == 0 {
				t.Errorf("calendar kinds: %v", kinds)
			}
			ex := sameInBothFormats(t, d, m, "exchanges", func(c *api.Client) ([]api.Exchange, *api.Response, error) {
				return c.Exchanges(ctx, api.ReferenceParams{})
			})
			conds := sameInBothFormats(t, d, m, "message-conditions", func(c *api.Client) ([]api.MessageCondition, *api.Response, error) {
				return c.MessageConditions(ctx, api.ReferenceParams{})
			})
			meta := sameInBothFormats(t, d, m, "scanner metadata", func(c *api.Client) (*api.ScannerMetadata, *api.Response, error) {
				return c.ScannerMetadata(ctx, api.ReferenceParams{})
			})
			if len(ex) == 0 || len(conds) == 0 || len(meta.Fields) == 0 || len(meta.Operators) == 0 {
				t.Errorf("reference: %d exchanges, %d conditions, %d fields", len(ex), len(conds), len(meta.Fields))
			}
			known := map[uint8]bool{}
			for _, e := range ex {
				known[e.ID] = true
			}
			for _, tr := range trades {
				if !known[tr.ExchangeID] {
					t.Fatalf("trade on exchange %d, not in the reference table", tr.ExchangeID)
				}
			}
		})
	}
	if live, delayed := chains["live"], chains["delayed"]; live != nil && delayed != nil && live.Timestamp == delayed.Timestamp {
		t.Error("delayed chain has the live chain's timestamp")
	}
}

// TestSandboxScanThroughClient runs the scanner in both formats and checks
// the server's answer to a formula the client cannot judge.
func TestSandboxScanThroughClient(t *testing.T) {
	d := startDataSandbox(t, sandbox.Config{})
	ctx := context.Background()
	p := api.ScanParams{Fields: []api.ScanFieldParam{
		{Formula: "iv30", DisplayName: "IV30", Sort: api.SortDesc},
		{Formula: "price > 50", IncludeInResultset: api.Ptr(false)},
		{Formula: "sector"},
	}}
	var outputs [2][]string
	for i, f := range []api.Format{api.JSON, api.XML} {
		res, resp, err := d.client(t, f, api.Live).CustomScan(ctx, p)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if len(res.Output) != 20 || resp.Cost != 30 {
			t.Fatalf("%v: %d rows, cost %d; want the top 20 for 30 points", f, len(res.Output), resp.Cost)
		}
		prev := 1e9
		for _, row := range res.Output {
			iv, ok := row.Number("IV30")
			if !ok || iv > prev {
				t.Fatalf("%v: rows not sorted by IV30 desc: %v", f, row.Values)
			}
			prev = iv
			if _, has := row.Values["price > 50"]; has {
				t.Fatalf("%v: a field with include_in_resultset=false came back", f)
			}
			outputs[i] = append(outputs[i], row.Symbol+fmt.Sprint(row.Values["sector"]))
		}
	}
	if fmt.Sprint(outputs[0]) != fmt.Sprint(outputs[1]) {
		t.Errorf("JSON and XML scans differ:\n%v\n%v", outputs[0], outputs[1])
	}

	all, _, err := d.client(t, api.JSON, api.Delayed).CustomScan(ctx, api.ScanParams{AllResults: true, Fields: []api.ScanFieldParam{{Formula: "price"}}})
	if err != nil || len(all.Output) < 100 {
		t.Fatalf("all_results: %v rows, %v", len(all.Output), err)
	}

	_, _, err = d.client(t, api.JSON, api.Live).CustomScan(ctx, api.ScanParams{Fields: []api.ScanFieldParam{{Formula: "iv31 > 40"}}})
	var apiErr *api.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest || !bytes.Contains([]byte(apiErr.Message), []byte("iv31")) {
		t.Fatalf("unknown field: %v", err)
	}
}
