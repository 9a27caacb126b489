package wire

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
)

// testServer serves every shape of this package from fixtures, in the format
// Negotiate picks, so that the api client's own decoders (its table-driven
// JSON scanner and its XML readers) read what this package writes.
func testServer(t *testing.T) *httptest.Server {
	t.Helper()
	u, chain := testUnderlying(), testChain(2000, false)
	chain[3].Option = odd
	mux := http.NewServeMux()
	route := func(path string, body func(f api.Format) []byte) {
		mux.HandleFunc("/v1/live/"+path, func(w http.ResponseWriter, r *http.Request) {
			f, ok := Negotiate(strings.Join(r.Header.Values("Accept"), ","))
			if !ok {
				http.Error(w, "Accept must be JSON or XML", http.StatusNotAcceptable)
				return
			}
			w.Header().Set("Content-Type", ContentType(f))
			_, _ = w.Write(body(f))
		})
	}
	route("allaccess/market/option-and-underlying-quotes", func(f api.Format) []byte { return AppendChain(nil, f, u, chain) })
	route("allaccess/market/underlying-quotes", func(f api.Format) []byte { return AppendSymbols(nil, f, testSymbols()) })
	route("allaccess/time-and-sales/option-trades", func(f api.Format) []byte { return AppendOptionTrades(nil, f, testOptionTrades()) })
	route("allaccess/time-and-sales/trades-and-quotes", func(f api.Format) []byte { return AppendTAQ(nil, f, testTAQ()) })
	route("time-and-sales/option-trades-with-greeks", func(f api.Format) []byte { return AppendTradesWithGreeks(nil, f, testGreeks()) })
	route("market/symbols/AAPL/calendar", func(f api.Format) []byte { return AppendCalendar(nil, f, testCalendar()) })
	route("reference/exchanges", func(f api.Format) []byte { return AppendExchanges(nil, f, testExchanges()) })
	route("reference/message-conditions", func(f api.Format) []byte { return AppendMessageConditions(nil, f, testConditions()) })
	mux.HandleFunc("/v1/live/allaccess/scans-and-alerts/custom-scanner", func(w http.ResponseWriter, r *http.Request) {
		f, ok := Negotiate(r.Header.Get("Accept"))
		if !ok {
			http.Error(w, "Accept must be JSON or XML", http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Type", ContentType(f))
		if r.Method == http.MethodGet {
			_, _ = w.Write(AppendScannerMetadata(nil, f, testMetadata()))
			return
		}
		in, ok := RequestFormat(r.Header.Get("Content-Type"))
		if !ok {
			http.Error(w, "Content-Type must be JSON or XML", http.StatusUnsupportedMediaType)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		params, err := DecodeScanParams(body, in)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res := testScanResult()
		res.Inputs = params // the echo of the request
		_, _ = w.Write(AppendScanResult(nil, f, res))
	})
	srv := httptest.NewServer(mux) // 127.0.0.1
	t.Cleanup(srv.Close)
	return srv
}

func TestThroughClient(t *testing.T) {
	srv := testServer(t)
	ctx := context.Background()
	const date = "2026-11-20"
	for _, f := range []api.Format{api.JSON, api.XML} {
		t.Run(f.String(), func(t *testing.T) {
			c, err := api.NewClient(api.WithBaseURL(srv.URL), api.WithFormat(f), api.WithMode(api.Live),
				api.WithClock(func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, api.Eastern) }))
			if err != nil {
				t.Fatal(err)
			}
			same := func(name string, got, want any, err error) {
				t.Helper()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
				}
			}
			chain, _, err := c.OptionAndUnderlyingQuotes(ctx, api.OptionQuotesParams{Symbol: "SPX", Date: date})
			wantChain := testChain(2000, false)
			wantChain[3].Option = odd
			if err == nil && (len(chain.Options) != len(wantChain) || !reflect.DeepEqual(chain.Underlying, *testUnderlying())) {
				t.Fatalf("chain: %d contracts, underlying %+v", len(chain.Options), chain.Underlying)
			}
			same("chain", chain.Options, wantChain, err)

			syms, _, err := c.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"SPX", "AAPL"}, Date: date})
			same("symbols", syms, testSymbols(), err)
			trades, _, err := c.OptionTrades(ctx, api.OptionTradesParams{Symbol: "SPX", Date: date})
			same("option trades", trades, testOptionTrades(), err)
			taq, _, err := c.TradesAndQuotes(ctx, api.TradesAndQuotesParams{Symbol: "AAPL", Date: date,
				MinTime: "09:30:00.000", MaxTime: "16:00:00.000"})
			same("trades and quotes", taq, testTAQ(), err)
			greeks, _, err := c.OptionTradesWithGreeks(ctx, api.OptionTradesWithGreeksParams{Symbol: "SPXW261120C06000000",
				Date: date, MinTime: "09:30:00.000", MaxTime: "16:00:00.000"})
			same("trades with greeks", greeks, testGreeks(), err)
			ev, _, err := c.Calendar(ctx, api.CalendarParams{Symbols: []string{"AAPL"}})
			same("calendar", ev, testCalendar(), err)
			ex, _, err := c.Exchanges(ctx, api.ReferenceParams{})
			same("exchanges", ex, testExchanges(), err)
			mc, _, err := c.MessageConditions(ctx, api.ReferenceParams{})
			same("message conditions", mc, testConditions(), err)
			md, _, err := c.ScannerMetadata(ctx, api.ReferenceParams{})
			same("scanner metadata", md, testMetadata(), err)

			fields := testScanResult().Inputs
			res, _, err := c.CustomScan(ctx, api.ScanParams{Fields: fields})
			if err != nil {
				t.Fatal(err)
			}
			same("scan inputs", res.Inputs, fields, nil)
			same("scan output", res.Output, wantRows(), nil)
			if res.LastUpdated != testScanResult().LastUpdated {
				t.Errorf("last_updated %q", res.LastUpdated)
			}
		})
	}
}
