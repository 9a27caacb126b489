package api

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestEndpointOptionAndUnderlyingQuotes(t *testing.T) {
	p := OptionQuotesParams{Symbol: "AAPL", Date: "2026-11-20", Root: "AAPL", OptionType: Call,
		MinExpiry: "2026-12-01", MaxExpiry: "2027-01-31", MinStrike: Ptr(100.0), MaxStrike: Ptr(400.5)}
	q := url.Values{"symbol": {"AAPL"}, "date": {"2026-11-20"}, "root": {"AAPL"}, "option_type": {"C"},
		"min_expiry": {"2026-12-01"}, "max_expiry": {"2027-01-31"}, "min_strike": {"100"}, "max_strike": {"400.5"}}
	got := bothFormats(t, "option-and-underlying-quotes", "GET", "/v1/live/allaccess/market/option-and-underlying-quotes", q,
		func(c *Client) (*SymbolWithOptions, *Response, error) {
			return c.OptionAndUnderlyingQuotes(t.Context(), p)
		})
	for _, f := range wireFormats {
		ch := got[f]
		if ch == nil || len(ch.Options) != 3 {
			t.Fatalf("%s: chain %+v, want 3 options", f, ch)
		}
		checkDiff(t, f.String()+" underlying", wantAAPL, ch.Underlying)
		checkDiff(t, f.String()+" options[0]", wantAAPLCall, ch.Options[0])
		put, far := ch.Options[1], ch.Options[2]
		if put.Bid != Some(0.0) || put.BidSize != Some[int64](0) || put.Open.Valid || put.Close.Valid {
			t.Errorf("%s: put bid %v size %v open %v close %v, want 0 0 null null", f, put.Bid, put.BidSize, put.Open, put.Close)
		}
		if far.Bid.Valid || far.Mid.Valid || far.BidSize.Valid || far.IV.Valid || far.Rho.Valid || far.Ask != Some(0.05) {
			t.Errorf("%s: far call bid %v mid %v iv %v ask %v, want null null null 0.05", f, far.Bid, far.Mid, far.IV, far.Ask)
		}
		if far.Strike != 332.5 || far.Option != "AAPL270115C00332500" || far.Expiry != NewDate(2027, 1, 15) {
			t.Errorf("%s: far call %v %s %v", f, far.Strike, far.Option, far.Expiry)
		}
	}
}

func TestEndpointUnderlyingQuotes(t *testing.T) {
	// Delayed by the params (the client's default is live), historical by
	// the date: the historical price applies.
	p := UnderlyingQuotesParams{Symbols: []string{"AAPL", "MSFT", "TSLA"}, Date: "2026-11-19", SeqNo: Ptr[int64](0), Mode: Delayed}
	q := url.Values{"symbols": {"AAPL,MSFT,TSLA"}, "date": {"2026-11-19"}, "seq_no": {"0"}}
	for _, f := range wireFormats {
		t.Run(f.String(), func(t *testing.T) {
			_, resp := roundTrip(t, f, "underlying-quotes", "GET", "/v1/delayed/allaccess/market/underlying-quotes", q,
				func(c *Client) ([]Symbol, *Response, error) { return c.UnderlyingQuotes(t.Context(), p) })
			if resp.Mode != Delayed || !resp.Historical || resp.Cost != 3 || resp.Endpoint != EndpointUnderlyingQuotes {
				t.Errorf("response %+v, want delayed historical costing 3", resp)
			}
		})
	}
	got := bothFormats(t, "underlying-quotes", "GET", "/v1/delayed/allaccess/market/underlying-quotes", q,
		func(c *Client) ([]Symbol, *Response, error) { return c.UnderlyingQuotes(t.Context(), p) })
	for _, f := range wireFormats {
		s := got[f]
		if len(s) != 3 {
			t.Fatalf("%s: %d symbols, want 3", f, len(s))
		}
		checkDiff(t, f.String()+" [0]", Symbol{Underlying: wantAAPL, ImpliedUnderlyingIndicator: Some(Green)}, s[0])
		msft, tsla := s[1], s[2]
		if msft.ImpliedUnderlyingIndicator != Some(Yellow) || msft.Bid.Valid || msft.Mid.Valid || msft.LastTradeSize.Valid ||
			msft.PrevDayClose != Some(412.87) || msft.IV30Change != Some(0.0) || msft.IV30ChangePercent != Some(0.0) {
			t.Errorf("%s: MSFT %+v, want yellow, null subscription fields, 0 iv30 change", f, msft)
		}
		if tsla.ImpliedUnderlyingIndicator.Valid || tsla.ImpliedUnderlyingBid.Valid || tsla.ImpliedUnderlyingAskSize.Valid ||
			tsla.Close != Some(341.8) || tsla.Timestamp != NewTimeOfDay(16, 0, 0, 0) {
			t.Errorf("%s: TSLA %+v, want null implied fields and a close", f, tsla)
		}
	}
}

func TestEndpointScannerMetadata(t *testing.T) {
	got := bothFormats(t, "custom-scanner-metadata", "GET", "/v1/live/allaccess/scans-and-alerts/custom-scanner", nil,
		func(c *Client) (*ScannerMetadata, *Response, error) {
			return c.ScannerMetadata(t.Context(), ReferenceParams{})
		})
	want := &ScannerMetadata{
		Fields: []ScanField{
			{Name: "iv30", DisplayName: "IV30", Description: "30 day average implied volatility, in percentage points", Category: "Volatility", DataType: "decimal"},
			{Name: "underlying_close", DisplayName: "Close", Description: "Closing price; null during market hours", Category: "Price", DataType: "decimal", MayContainNull: true},
			{Name: "sector", DisplayName: "Sector", Description: "Company sector", Category: "Company", DataType: "string", MayContainNull: true},
		},
		Operators: []ScanOperator{{">", "greater than"}, {"<=", "less than or equal to"},
			{"and", "logical and (also &&)"}, {"abs", "absolute value"}},
	}
	checkDiff(t, "metadata", want, got[JSON])
}

func TestEndpointReferenceTables(t *testing.T) {
	ex := bothFormats(t, "exchanges", "GET", "/v1/delayed/reference/exchanges", nil,
		func(c *Client) ([]Exchange, *Response, error) {
			return c.Exchanges(t.Context(), ReferenceParams{Mode: Delayed})
		})
	checkDiff(t, "exchanges", []Exchange{{0, "COMP", "Composite"}, {4, "CBOE", "Cboe Options Exchange"}, {7, "ISE", "Nasdaq ISE"}}, ex[JSON])
	mc := bothFormats(t, "message-conditions", "GET", "/v1/live/reference/message-conditions", nil,
		func(c *Client) ([]MessageCondition, *Response, error) {
			return c.MessageConditions(t.Context(), ReferenceParams{})
		})
	checkDiff(t, "conditions", []MessageCondition{{0, "REG", "Regular", ConditionQuote}, {18, "AUTO", "Electronic trade", ConditionTrade},
		{40, "CNCL", "Cancel of a previous trade", ConditionTrade}}, mc[JSON])
	for _, f := range wireFormats {
		_, resp := roundTrip(t, f, "exchanges", "GET", "/v1/live/reference/exchanges", nil,
			func(c *Client) ([]Exchange, *Response, error) { return c.Exchanges(t.Context(), ReferenceParams{}) })
		if resp.Cost != 0 || resp.Endpoint != EndpointExchanges {
			t.Errorf("%s: exchanges cost %d, want 0", f, resp.Cost)
		}
	}
}

// wantAAPL is the underlying of both quote fixtures, every field.
var wantAAPL = Underlying{
	Symbol: "AAPL", Timestamp: NewTimeOfDay(13, 59, 58, 125),
	ImpliedUnderlyingBid: Some(228.41), ImpliedUnderlyingAsk: Some(228.47),
	ImpliedUnderlyingBidSize: Some[int64](12), ImpliedUnderlyingAskSize: Some[int64](9), ImpliedUnderlyingMid: Some(228.44),
	Mid: Some(228.445), LastTradePrice: Some(228.45), LastTradeSize: Some[int64](100),
	Bid: Some(228.44), Ask: Some(228.45), BidSize: Some[int64](3), AskSize: Some[int64](5),
	Open: Some(226.1), High: Some(229.02), Low: Some(225.87), Close: Float{}, PrevDayClose: Some(226.96),
	Volume: Some[int64](38211457), IV30: Some(22.08), IV30Change: Some(-0.35), IV30ChangePercent: Some(-1.56),
	SeqNo: Some[int64](48211093),
}

// wantAAPLCall is the first contract of the chain fixture, every field.
var wantAAPLCall = OptionData{
	Root: "AAPL", Expiry: NewDate(2026, 12, 18), Strike: 230, OptionType: Call,
	Timestamp: NewTimeOfDay(13, 59, 57, 870), Option: "AAPL261218C00230000",
	Mid: Some(6.125), Bid: Some(6.05), Ask: Some(6.2), BidSize: Some[int64](48), AskSize: Some[int64](61),
	TradeCount: Some[int64](1843), Open: Some(5.4), High: Some(6.55), Low: Some(5.1), Close: Float{},
	PrevDayClose: Some(5.35), LastTradePrice: Some(6.1), IV: Some(0.2208), OpenInterest: Some[int64](25411),
	Volume: Some[int64](9324), Delta: Some(0.4871), Gamma: Some(0.0213), Vega: Some(0.2931), Theta: Some(-0.0914), Rho: Some(0.0875),
}

func TestEndpointCalendar(t *testing.T) {
	cases := []struct {
		name string
		p    CalendarParams
		path string
		q    url.Values
	}{
		{"symbols", CalendarParams{Symbols: []string{"AAPL", "MSFT"}, EventType: EventsEarnings, StartDate: "2026-01-01", EndDate: "2027-12-31"},
			"/v1/live/market/symbols/AAPL,MSFT/calendar", url.Values{"event_type": {"earnings"}, "start_date": {"2026-01-01"}, "end_date": {"2027-12-31"}}},
		{"all optionable", CalendarParams{Symbols: []string{AllOptionableSymbols}, EventType: EventsDividends, Mode: Delayed},
			"/v1/delayed/market/symbols/all_optionable_symbols/calendar", url.Values{"event_type": {"dividends"}}},
		{"defaults", CalendarParams{Symbols: []string{"AAPL"}}, "/v1/live/market/symbols/AAPL/calendar", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := bothFormats(t, "calendar", "GET", tc.path, tc.q,
				func(c *Client) ([]CalendarEvent, *Response, error) { return c.Calendar(t.Context(), tc.p) })
			ev := got[JSON]
			if len(ev) != 4 {
				t.Fatalf("%d events, want 4", len(ev))
			}
			checkDiff(t, "[0]", CalendarEvent{Kind: KindEarnings, Earnings: EarningsEvent{Year: 2026, Quarter: 4,
				ReportDate: NewDate(2026, 10, 29), TimeOfDay: AfterClose, ReportDateType: "Confirmed", DateType: "1",
				EPSActual: Some(1.64), EPSEstimate: Some(1.6), ActualCurrency: "USD", UnderlyingSymbol: "AAPL",
				CompanyName: "Apple Inc.", DataSourceID: Some[int64](3)}}, ev[0])
			checkDiff(t, "[2]", CalendarEvent{Kind: KindDividend, Dividend: DividendsEvent{ExDividendDate: NewDate(2026, 11, 10),
				PaymentDate: NewDate(2026, 11, 13), Dividend: Some(0.26), SpecialDividendCode: Some[int64](0), DividendCode: "Regular",
				UnadjustedDividend: Some(0.26), DataSource: "Exchange", UnderlyingSymbol: "AAPL", CompanyName: "Apple Inc.",
				DataSourceID: Some[int64](3)}}, ev[2])
			if e := ev[1].Earnings; ev[1].Kind != KindEarnings || e.EPSActual.Valid || e.EPSEstimate != Some(0.0) || e.DataSourceID.Valid || e.TimeOfDay != BeforeOpen {
				t.Errorf("[1] = %+v, want a future MSFT report with null eps_actual and 0.00 estimate", ev[1])
			}
			if d := ev[3].Dividend; ev[3].Kind != KindDividend || d.SpecialDividendCode.Valid || d.UnadjustedDividend.Valid || ev[3].Date() != NewDate(2026, 11, 20) {
				t.Errorf("[3] = %+v, want an MSFT dividend with null codes", ev[3])
			}
			if ev[3].Symbol() != "MSFT" || ev[0].Symbol() != "AAPL" || ev[0].Date() != NewDate(2026, 10, 29) {
				t.Errorf("Symbol/Date accessors: %s %s %v", ev[3].Symbol(), ev[0].Symbol(), ev[0].Date())
			}
		})
	}
}

func TestEndpointCustomScan(t *testing.T) {
	fields := []ScanFieldParam{{Formula: "iv30", DisplayName: "iv30", Sort: SortDesc},
		{Formula: "iv30 > 40", DisplayName: "high_iv", IncludeInResultset: Ptr(false)}, {Formula: "sector"}}
	cases := []struct {
		all  bool
		mode Mode
		path string
		q    url.Values
		cost int
	}{
		{true, "", "/v1/live/allaccess/scans-and-alerts/custom-scanner", url.Values{"all_results": {"true"}}, 150},
		{true, Delayed, "/v1/delayed/allaccess/scans-and-alerts/custom-scanner", url.Values{"all_results": {"true"}}, 250},
		{false, "", "/v1/live/allaccess/scans-and-alerts/custom-scanner", nil, 30},
		{false, Delayed, "/v1/delayed/allaccess/scans-and-alerts/custom-scanner", nil, 50},
	}
	for _, tc := range cases {
		for _, f := range wireFormats {
			c, mux, _ := setup(t, WithFormat(f))
			mux.HandleFunc(tc.path, func(w http.ResponseWriter, r *http.Request) {
				testRequest(t, r, "POST", tc.path, tc.q, f)
				if ct := r.Header.Get("Content-Type"); ct != f.contentType() {
					t.Errorf("Content-Type = %q, want %q", ct, f.contentType())
				}
				body, _ := io.ReadAll(r.Body)
				var sent []ScanFieldParam
				if f == XML {
					var x scanParamsXML
					if err := xml.Unmarshal(body, &x); err != nil || x.XMLName.Local != "scan_params" {
						t.Errorf("XML body %s: root %q, %v", body, x.XMLName.Local, err)
					}
					sent = x.Fields
				} else if err := json.Unmarshal(body, &sent); err != nil {
					t.Errorf("JSON body %s: %v", body, err)
				}
				checkDiff(t, "sent body", fields, sent)
				serveBody(w, fixture(t, fixtureName("custom-scanner", f)), f, 2000, 0)
			})
			res, resp, err := c.CustomScan(t.Context(), ScanParams{Fields: fields, AllResults: tc.all, Mode: tc.mode})
			if err != nil {
				t.Fatalf("%s %+v: %v", f, tc, err)
			}
			if resp.Cost != tc.cost || resp.PointsLeft != Some[int64](0) || resp.Historical {
				t.Errorf("%s %+v: cost %d left %v, want %d and 0", f, tc, resp.Cost, resp.PointsLeft, tc.cost)
			}
			checkDiff(t, f.String()+" result", wantScan, res)
		}
	}
}

var wantScan = &ScanResult{
	LastUpdated: "2026-11-20T13:59:00",
	Inputs: []ScanFieldParam{
		{Formula: "iv30", DisplayName: "iv30", IncludeInResultset: Ptr(true), Sort: SortDesc},
		{Formula: "iv30 > 40", DisplayName: "high_iv", IncludeInResultset: Ptr(false), Sort: SortNone},
		{Formula: "sector", DisplayName: "sector", IncludeInResultset: Ptr(true), Sort: SortNone},
		{Formula: "iv30_change", DisplayName: "change", IncludeInResultset: Ptr(true), Sort: SortNone},
	},
	Output: []ScanRow{
		{"COIN", "Coinbase Global, Inc.", map[string]any{"iv30": 71.2, "sector": "Financial Services", "change": nil}},
		{"TSLA", "Tesla, Inc.", map[string]any{"iv30": 55.21, "sector": "Consumer Cyclical", "change": 1.87}},
		{"PLTR", "Palantir Technologies Inc.", map[string]any{"iv30": 41.2, "sector": "Technology", "change": 0.0}},
	},
}

// TestEndpointNoData: a 204 is ErrNoData, charged, with the points read.
func TestEndpointNoData(t *testing.T) {
	for _, ep := range endpointCalls {
		t.Run(ep.ep.String(), func(t *testing.T) {
			c, mux, _ := setup(t, WithMode(Delayed))
			mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Monthly-Points-Used", "77")
				w.WriteHeader(http.StatusNoContent)
			})
			resp, err := ep.call(t.Context(), c, "", "2026-11-20")
			if !errors.Is(err, ErrNoData) || !IsNoData(err) {
				t.Fatalf("error %v, want ErrNoData", err)
			}
			if resp == nil || resp.StatusCode != http.StatusNoContent || resp.Cost != ep.cost[1] || resp.Mode != Delayed ||
				resp.PointsUsed != Some[int64](77) || resp.PointsLeft.Valid {
				t.Errorf("response %+v, want 204 costing %d with 77 points used and left unknown", resp, ep.cost[1])
			}
		})
	}
}

// TestEndpointInvalidParamsSendNothing: the catch-all handler of setup fails
// the test if anything reaches the server.
func TestEndpointInvalidParamsSendNothing(t *testing.T) {
	for _, ep := range endpointCalls {
		t.Run(ep.ep.String(), func(t *testing.T) {
			c, _, _ := setup(t)
			resp, err := ep.invalid(t.Context(), c)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v, want a *ValidationError", err)
			}
			if resp != nil {
				t.Errorf("response %+v for a request never sent", resp)
			}
		})
	}
}

// TestEndpointDecodeError: a 200 whose body is not JSON (or XML) is an
// error naming the endpoint; the request was still charged.
func TestEndpointDecodeError(t *testing.T) {
	bodies := map[Format][]string{JSON: {`{"symbol": [`, `not json`, `[{"a": 1}] trailing`, ``}, XML: {`<broken>`, `<a></b>`, `not xml`, ``}}
	for _, f := range wireFormats {
		for _, body := range bodies[f] {
			for _, ep := range endpointCalls {
				t.Run(fmt.Sprintf("%s/%s/%q", f, ep.ep, body), func(t *testing.T) {
					c, mux, _ := setup(t, WithFormat(f))
					mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, body) })
					resp, err := ep.call(t.Context(), c, "", "2026-11-20")
					if err == nil || !strings.Contains(err.Error(), "decoding the "+ep.ep.String()+" response") {
						t.Fatalf("error %v, want a decode error naming %s", err, ep.ep)
					}
					if resp == nil || resp.Cost != ep.cost[0] {
						t.Errorf("response %+v, want the request charged %d", resp, ep.cost[0])
					}
				})
			}
		}
	}
}
