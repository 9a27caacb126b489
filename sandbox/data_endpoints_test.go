package sandbox_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/api"
)

// staticToken is a TokenSource of one access token.
type staticToken string

func (s staticToken) Token(context.Context) (*oauth2.Token, error) {
	return &oauth2.Token{AccessToken: string(s), TokenType: "Bearer"}, nil
}
func (staticToken) Invalidate() {}

// apiClient is chainwatch's own client of the env's sandbox in format f.
func (e *dataEnv) apiClient(f api.Format) *api.Client {
	e.t.Helper()
	c, err := api.NewClient(api.WithBaseURL(e.s.BaseURL), api.WithTokenSource(staticToken(e.token)),
		api.WithFormat(f), api.WithClock(e.clock.Now),
		api.WithHTTPClient(&http.Client{Transport: e.tr, Timeout: 30 * time.Second}))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// Every endpoint through the client, in both formats, with its filters.
func TestDataEndpoints(t *testing.T) {
	t.Parallel()
	e, day := newSessionEnv(t, nil)
	// The whole SPX chain once (it is megabytes), to check the filters by.
	full, _, err := e.apiClient(api.JSON).OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPX", Date: day.String()})
	if err != nil || full.Symbol != "SPX" || len(full.Options) < 1000 {
		t.Fatalf("SPX chain: %v", err)
	}
	px := full.Mid.Or(full.PrevDayClose.V)
	want := slices.DeleteFunc(slices.Clone(full.Options), func(o api.OptionData) bool {
		return o.Root != "SPXW" || o.OptionType != api.Put || o.Expiry < day || o.Expiry > day.AddDays(30) ||
			o.Strike < px-100 || o.Strike > px+100
	})
	for _, f := range []api.Format{api.JSON, api.XML} {
		t.Run(f.String(), func(t *testing.T) {
			c, ctx, d := e.apiClient(f), t.Context(), day.String()
			p := api.OptionQuotesParams{Symbol: "SPX", Date: d, Root: "spxw", OptionType: api.Put,
				MinExpiry: d, MaxExpiry: day.AddDays(30).String(), MinStrike: api.Ptr(px - 100), MaxStrike: api.Ptr(px + 100)}
			part, _, err := c.OptionAndUnderlyingQuotes(ctx, p)
			if err != nil || len(part.Options) != len(want) || len(want) == 0 || !slices.Equal(part.Options, want) {
				t.Errorf("filtered chain: %v, %d options, want %d", err, len(part.Options), len(want))
			}

			syms, _, err := c.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"AAPL", "NOSUCH", "SPX"}, Date: d})
			if err != nil || len(syms) != 2 || syms[0].Symbol != "AAPL" || syms[1].Symbol != "SPX" {
				t.Fatalf("underlying quotes: %v %d", err, len(syms))
			}
			after := max(syms[0].SeqNo.V, syms[1].SeqNo.V) + 1
			if _, _, err := c.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"AAPL", "SPX"}, Date: d, SeqNo: &after}); !api.IsNoData(err) {
				t.Errorf("underlying quotes unchanged since seq_no %d: %v, want 204", after, err)
			}

			trades, _, err := c.OptionTrades(ctx, api.OptionTradesParams{Symbol: "SPX", Date: d, Limit: api.Ptr(50)})
			if err != nil || len(trades) != 50 || !slices.IsSortedFunc(trades, func(a, b api.OptionTrade) int { return int(a.SeqNo - b.SeqNo) }) {
				t.Fatalf("option trades: %v, %d", err, len(trades))
			}
			next, _, err := c.OptionTrades(ctx, api.OptionTradesParams{Symbol: "SPX", Date: d, Limit: api.Ptr(5), SeqNo: api.Ptr(trades[49].SeqNo + 1)})
			if err != nil || next[0].SeqNo <= trades[49].SeqNo {
				t.Errorf("next page: %v", err)
			}
			t0 := trades[0]
			osi := t0.Security.V
			one, _, err := c.OptionTrades(ctx, api.OptionTradesParams{Symbol: osi, Date: d, Limit: api.Ptr(10000),
				MinTime: t0.Timestamp.String(), MaxTime: sessionTime.String()})
			if err != nil || one[0].SeqNo != t0.SeqNo || slices.ContainsFunc(one, func(x api.OptionTrade) bool { return x.Security.V != osi }) {
				t.Fatalf("trades of %s: %v", osi, err)
			}

			window := api.TradesAndQuotesParams{Symbol: "AAPL", Date: d, MinTime: "10:00:00.000", MaxTime: "10:00:30.000"}
			all, _, err := c.TradesAndQuotes(ctx, window)
			if err != nil || len(all) < 10 {
				t.Fatalf("trades and quotes: %v, %d records", err, len(all))
			}
			for _, mode := range []api.TAQMode{api.NBBOChanges, api.QuotesOnNBBO} {
				w := window
				w.TAQMode = mode
				sub, _, err := c.TradesAndQuotes(ctx, w)
				if err != nil && !api.IsNoData(err) || len(sub) > len(all) ||
					mode == api.QuotesOnNBBO && slices.ContainsFunc(sub, func(r api.TAQRecord) bool { return r.Kind != api.KindTrade && r.Quote.Flag == 0 }) {
					t.Errorf("mode %s: %v, %d of %d records", mode, err, len(sub), len(all))
				}
			}
			w := window
			w.OrderByTime, w.Limit = api.Descending, api.Ptr(5)
			desc, _, err := c.TradesAndQuotes(ctx, w)
			if err != nil || len(desc) != 5 || desc[0].SequenceNumber() != all[len(all)-1].SequenceNumber() {
				t.Errorf("newest first: %v, %d", err, len(desc))
			}

			greeks, _, err := c.OptionTradesWithGreeks(ctx, api.OptionTradesWithGreeksParams{Symbol: osi, Date: d,
				MinTime: t0.Timestamp.String(), MaxTime: sessionTime.String()})
			if err != nil || len(greeks) == 0 || len(greeks) > len(one) {
				t.Errorf("trades with greeks of %s: %v, %d, want 1 to %d", osi, err, len(greeks), len(one))
			}

			top, _, err := c.CustomScan(ctx, api.ScanParams{Fields: []api.ScanFieldParam{{Formula: "price", Sort: api.SortDesc}}})
			every, _, err2 := c.CustomScan(ctx, api.ScanParams{Fields: []api.ScanFieldParam{{Formula: "price"}}, AllResults: true})
			if err != nil || err2 != nil || len(top.Output) != 20 || len(every.Output) < 100 {
				t.Errorf("scans: %v %v", err, err2)
			}
			if meta, _, err := c.ScannerMetadata(ctx, api.ReferenceParams{}); err != nil || len(meta.Fields) < 20 {
				t.Errorf("scanner metadata: %v", err)
			}

			ev, _, err := c.Calendar(ctx, api.CalendarParams{Symbols: []string{"AAPL"}, EventType: api.EventsEarnings,
				StartDate: "2020-01-01", EndDate: "2024-12-31"})
			if err != nil || len(ev) < 16 || slices.ContainsFunc(ev, func(x api.CalendarEvent) bool {
				return x.Kind != api.KindEarnings || x.Symbol() != "AAPL" || x.Date() < 20200101 || x.Date() > 20241231
			}) {
				t.Errorf("AAPL earnings 2020-2024: %v, %d events", err, len(ev))
			}
			if ev, _, err := c.Calendar(ctx, api.CalendarParams{Symbols: []string{api.AllOptionableSymbols},
				StartDate: d, EndDate: day.AddDays(31).String()}); err != nil || len(ev) < 10 {
				t.Errorf("a month of all optionable symbols: %v, %d events", err, len(ev))
			}

			if x, _, err := c.Exchanges(ctx, api.ReferenceParams{}); err != nil || len(x) < 10 {
				t.Errorf("exchanges: %v", err)
			}
			if x, _, err := c.MessageConditions(ctx, api.ReferenceParams{}); err != nil || len(x) < 5 {
				t.Errorf("message conditions: %v", err)
			}
		})
	}
}

// A historical answer never changes: the same request gives the same
// bytes, and a symbol with a slash is a path segment of its own.
func TestDataHistoricalAndEscapes(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil)
	for _, c := range []struct{ path, query string }{
		{pathChain, "symbol=AAPL&date=" + pastDay},
		{pathTrades, "symbol=AAPL&limit=1000&date=" + pastDay},
	} {
		r1, b1 := e.getLive(c.path, c.query)
		r2, b2 := e.call(http.MethodGet, e.url("delayed", c.path, c.query), nil, nil)
		if r1.StatusCode != http.StatusOK || r2.StatusCode != http.StatusOK || b1 != b2 {
			t.Errorf("%s?%s: %d and %d, same bytes %v", c.path, c.query, r1.StatusCode, r2.StatusCode, b1 == b2)
		}
	}
	resp, body := e.getLive("market/symbols/BRK%2FB,AAPL/calendar", "event_type=dividends&start_date=2024-01-01&end_date=2024-12-31")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("calendar of BRK%%2FB,AAPL: %d %.100q", resp.StatusCode, body)
	}
}
