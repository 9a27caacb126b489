package api

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The three time-and-sales endpoints, in JSON and XML, with every
// parameter set so that the query is checked whole; then the price of every
// endpoint, and the check that the fixtures hold every field.

func TestEndpointOptionTrades(t *testing.T) {
	p := OptionTradesParams{Symbol: "AAPL", Date: "2026-11-19", Root: "AAPL", Expiry: "2026-12-18", Strike: Ptr(230.0),
		OptionType: Call, MinTime: "09:30:00.000", MaxTime: "16:00:00.000", SeqNo: Ptr[int64](1012345),
		ExchangeID: Ptr(7), ConditionID: Ptr(18), Limit: Ptr(500), MinSize: Ptr[int64](1), MaxSize: Ptr[int64](1000),
		MinPrice: Ptr(0.0), MaxPrice: Ptr(99.95), Mode: Delayed}
	q := url.Values{"symbol": {"AAPL"}, "date": {"2026-11-19"}, "root": {"AAPL"}, "expiry": {"2026-12-18"},
		"strike": {"230"}, "option_type": {"C"}, "min_time": {"09:30:00.000"}, "max_time": {"16:00:00.000"},
		"seq_no": {"1012345"}, "exchange_id": {"7"}, "condition_id": {"18"}, "limit": {"500"},
		"min_size": {"1"}, "max_size": {"1000"}, "min_price": {"0"}, "max_price": {"99.95"}}
	got := bothFormats(t, "option-trades", "GET", "/v1/delayed/allaccess/time-and-sales/option-trades", q,
		func(c *Client) ([]OptionTrade, *Response, error) { return c.OptionTrades(t.Context(), p) })
	for _, f := range wireFormats {
		tr := got[f]
		if len(tr) != 3 {
			t.Fatalf("%s: %d trades, want 3", f, len(tr))
		}
		checkDiff(t, f.String()+" [0]", OptionTrade{
			Security: Some("AAPL261218C00230000"), Root: "AAPL", Expiry: NewDate(2026, 12, 18), Strike: 230, OptionType: Call,
			Ask: Some(6.2), AskSize: Some[int64](61), Bid: Some(6.05), BidSize: Some[int64](48), Price: Some(6.2), Size: 10,
			TradeAt: OnAsk, UnderlyingBid: Some(228.44), UnderlyingAsk: Some(228.45), ConditionID: 18, ExchangeID: 7,
			ExchangeSeqNo: 88412, CancelFlag: TradeNormal, Timestamp: NewTimeOfDay(13, 59, 57, 870), SeqNo: 1012345,
		}, tr[0])
		canceled, cancel := tr[1], tr[2]
		if canceled.Security.Valid || canceled.Bid != Some(0.0) || canceled.BidSize != Some[int64](0) ||
			canceled.Price != Some(0.01) || canceled.UnderlyingBid.Valid || canceled.CancelFlag != TradeCanceled || canceled.TradeAt != MidMarket {
			t.Errorf("%s: [1] = %+v, want null security, 0.00 bid, canceled", f, canceled)
		}
		if cancel.Bid.Valid || cancel.Ask.Valid || cancel.AskSize.Valid || cancel.Price.Valid || cancel.CancelFlag != TradeCancel ||
			cancel.TradeAt != NoMarket || cancel.Security != Some("AAPL261218P00150000") || cancel.SeqNo != 1012351 {
			t.Errorf("%s: [2] = %+v, want the cancel message with a null NBBO and price", f, cancel)
		}
	}
}

func TestEndpointTradesAndQuotes(t *testing.T) {
	p := TradesAndQuotesParams{Symbol: "AAPL  261218C00230000", Date: "2026-11-20", MinTime: "10:15:00.000", MaxTime: "10:16:00.000",
		TAQMode: NBBOChanges, QuoteConditionIDs: []int{0, 1}, TradeConditionIDs: []int{18, 40}, ConditionIDs: []int{255},
		StartSequenceNumber: Ptr[int64](2001), ExchangeID: Ptr(4), Limit: Ptr(10000), OrderByTime: Ascending}
	q := url.Values{"symbol": {"AAPL261218C00230000"}, "date": {"2026-11-20"}, "min_time": {"10:15:00.000"}, "max_time": {"10:16:00.000"},
		"mode": {"NBBO_CHANGES"}, "quote_condition_id": {"0,1"}, "trade_condition_id": {"18,40"}, "condition_id": {"255"},
		"start_sequence_number": {"2001"}, "exchange_id": {"4"}, "limit": {"10000"}, "order_by_time": {"ASC"}}
	got := bothFormats(t, "trades-and-quotes", "GET", "/v1/live/allaccess/time-and-sales/trades-and-quotes", q,
		func(c *Client) ([]TAQRecord, *Response, error) { return c.TradesAndQuotes(t.Context(), p) })
	for _, f := range wireFormats {
		rs := got[f]
		if len(rs) != 5 {
			t.Fatalf("%s: %d records, want 5", f, len(rs))
		}
		for i, k := range []RecordKind{KindTrade, KindQuote, KindOptionQuote, KindOptionQuote, KindTrade} {
			if rs[i].Kind != k || rs[i].SequenceNumber() != int64(2001+i) {
				t.Errorf("%s: [%d] is a %s #%d, want a %s #%d", f, i, rs[i].Kind, rs[i].SequenceNumber(), k, 2001+i)
			}
		}
		checkDiff(t, f.String()+" [0]", TAQRecord{Kind: KindTrade, Trade: Trade{Size: 5, Price: Some(6.15), Flag: TradeNormal,
			ExchSequenceNumber: 55120, Time: NewTimeOfDay(10, 15, 2, 331), ExchangeID: 4, ConditionID: 18, SequenceNumber: 2001,
			NBBOBid: Some(6.1), NBBOAsk: Some(6.2), NBBOBidSize: Some[int64](30), NBBOAskSize: Some[int64](25)}}, rs[0])
		quote := Quote{BestAskExchange: 7, BestBidExchange: 4, BidSize: Some[int64](30), Bid: Some(6.1), AskSize: Some[int64](22),
			Ask: Some(6.2), Flag: NBBOBestBid | NBBOBestAsk, Time: NewTimeOfDay(10, 15, 2, 400), ExchangeID: 7, ConditionID: 0,
			SequenceNumber: 2002, NBBOBid: Some(6.1), NBBOBidSize: Some[int64](30), NBBOAsk: Some(6.2), NBBOAskSize: Some[int64](22)}
		checkDiff(t, f.String()+" [1]", TAQRecord{Kind: KindQuote, Quote: OptionQuote{Quote: quote}}, rs[1])
		checkDiff(t, f.String()+" [2]", TAQRecord{Kind: KindOptionQuote, Quote: OptionQuote{Quote: Quote{BestAskExchange: 7,
			BestBidExchange: 9, BidSize: Some[int64](12), Bid: Some(6.15), AskSize: Some[int64](22), Ask: Some(6.2), Flag: NBBOBestBid,
			Time: NewTimeOfDay(10, 15, 2, 512), ExchangeID: 9, SequenceNumber: 2003, NBBOBid: Some(6.15), NBBOBidSize: Some[int64](12),
			NBBOAsk: Some(6.2), NBBOAskSize: Some[int64](22)}, UnderlyingBid: Some(228.44), UnderlyingAsk: Some(228.45)}}, rs[2])
		// An option quote whose underlying_bid is null is still an option quote.
		if q := rs[3].Quote; q.UnderlyingBid.Valid || q.UnderlyingAsk != Some(228.46) || q.Bid.Valid || q.BidSize.Valid ||
			q.NBBOBid != Some(0.0) || q.NBBOBidSize != Some[int64](0) || rs[3].Time() != NewTimeOfDay(10, 15, 3, 0) {
			t.Errorf("%s: [3] = %+v, want null underlying bid and bid, 0.00 NBBO bid", f, rs[3])
		}
		if tr := rs[4].Trade; tr.Price.Valid || tr.NBBOBid.Valid || tr.NBBOAskSize.Valid || tr.Flag != TradeCancel || tr.Size != 5 {
			t.Errorf("%s: [4] = %+v, want a cancel message with null price and NBBO", f, rs[4])
		}
	}
}

func TestEndpointOptionTradesWithGreeks(t *testing.T) {
	p := OptionTradesWithGreeksParams{Symbol: "AAPL261218C00230000", Date: "2026-11-20", MinTime: "13:00:00.000", MaxTime: "14:00:00.000",
		ExchangeID: Ptr(0), ConditionID: Ptr(255), MinSize: Ptr[int64](0), MaxSize: Ptr[int64](2147483647), MinPrice: Ptr(0.05),
		MaxPrice: Ptr(10.0), StartSequenceNumber: Ptr[int64](0), Limit: Ptr(100000), OrderByTime: Ascending}
	q := url.Values{"symbol": {"AAPL261218C00230000"}, "date": {"2026-11-20"}, "min_time": {"13:00:00.000"}, "max_time": {"14:00:00.000"},
		"exchange_id": {"0"}, "condition_id": {"255"}, "min_size": {"0"}, "max_size": {"2147483647"}, "min_price": {"0.05"},
		"max_price": {"10"}, "start_sequence_number": {"0"}, "limit": {"100000"}, "order_by_time": {"ASC"}}
	// No allaccess/ in this path, as the spec gives it.
	got := bothFormats(t, "option-trades-with-greeks", "GET", "/v1/live/time-and-sales/option-trades-with-greeks", q,
		func(c *Client) ([]OptionTradeWithGreeks, *Response, error) {
			return c.OptionTradesWithGreeks(t.Context(), p)
		})
	for _, f := range wireFormats {
		tr := got[f]
		if len(tr) != 2 {
			t.Fatalf("%s: %d trades, want 2", f, len(tr))
		}
		checkDiff(t, f.String()+" [0]", OptionTradeWithGreeks{IV: Some(0.2208), Delta: Some(0.4871), Vega: Some(0.2931),
			Theta: Some(-0.0914), Rho: Some(0.0875), Gamma: Some(0.0213), DollarDelta: Some(111275.56), DollarVega: Some(293.1),
			DollarTheta: Some(-91.4), UnderlyingBid: Some(228.44), UnderlyingAsk: Some(228.45),
			Trade: Trade{Size: 10, Price: Some(6.2), Flag: TradeNormal, ExchSequenceNumber: 88412, Time: NewTimeOfDay(13, 59, 57, 870),
				ExchangeID: 7, ConditionID: 18, SequenceNumber: 1012345, NBBOBid: Some(6.05), NBBOAsk: Some(6.2),
				NBBOBidSize: Some[int64](48), NBBOAskSize: Some[int64](61)}}, tr[0])
		g := tr[1]
		if g.IV.Valid || g.Delta.Valid || g.Gamma.Valid || g.DollarTheta.Valid || g.UnderlyingAsk.Valid || g.NBBOBid.Valid ||
			g.NBBOBidSize.Valid || g.Price != Some(0.0) || g.NBBOAsk != Some(6.25) || g.Flag != TradeCanceled || g.SequenceNumber != 1012360 {
			t.Errorf("%s: [1] = %+v, want null greeks and bid, a 0.00 price", f, g)
		}
	}
}

// endpointCall is one valid request of an endpoint, for the tests that look
// only at the Response and the error.
type endpointCall struct {
	ep      Endpoint
	fixture string
	path    string // after /v1/{mode}/
	dated   bool   // has a date, so can be historical
	cost    [3]int // live, delayed, historical
	call    func(ctx context.Context, c *Client, m Mode, date string) (*Response, error)
	invalid func(ctx context.Context, c *Client) (*Response, error)
}

func respOf[T any](_ T, r *Response, err error) (*Response, error) { return r, err }

var endpointCalls = []endpointCall{
	{EndpointOptionQuotes, "option-and-underlying-quotes", pathOptionQuotes, true, [3]int{4, 8, 3},
		func(ctx context.Context, c *Client, m Mode, d string) (*Response, error) {
			return respOf(c.OptionAndUnderlyingQuotes(ctx, OptionQuotesParams{Symbol: "AAPL", Date: d, Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.OptionAndUnderlyingQuotes(ctx, OptionQuotesParams{Symbol: "AAPL"})) // no date
		}},
	{EndpointUnderlyingQuotes, "underlying-quotes", pathUnderlyingQuotes, true, [3]int{4, 8, 3},
		func(ctx context.Context, c *Client, m Mode, d string) (*Response, error) {
			return respOf(c.UnderlyingQuotes(ctx, UnderlyingQuotesParams{Symbols: []string{"AAPL"}, Date: d, Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.UnderlyingQuotes(ctx, UnderlyingQuotesParams{Date: "2026-11-20"})) // no symbols
		}},
	{EndpointOptionTrades, "option-trades", pathOptionTrades, true, [3]int{15, 30, 15},
		func(ctx context.Context, c *Client, m Mode, d string) (*Response, error) {
			return respOf(c.OptionTrades(ctx, OptionTradesParams{Symbol: "AAPL", Date: d, Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.OptionTrades(ctx, OptionTradesParams{Symbol: "AAPL", Date: "2026-11-20", Limit: Ptr(10001)}))
		}},
	{EndpointTradesAndQuotes, "trades-and-quotes", pathTradesAndQuotes, true, [3]int{15, 30, 15},
		func(ctx context.Context, c *Client, m Mode, d string) (*Response, error) {
			return respOf(c.TradesAndQuotes(ctx, TradesAndQuotesParams{Symbol: "AAPL", Date: d, MinTime: "09:30:00.000", MaxTime: "09:31:00.000", Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.TradesAndQuotes(ctx, TradesAndQuotesParams{Symbol: "AAPL", Date: "2026-11-20", MinTime: "09:31:00.000", MaxTime: "09:30:00.000"}))
		}},
	{EndpointTradesWithGreeks, "option-trades-with-greeks", pathTradesWithGreeks, true, [3]int{15, 30, 15},
		func(ctx context.Context, c *Client, m Mode, d string) (*Response, error) {
			return respOf(c.OptionTradesWithGreeks(ctx, OptionTradesWithGreeksParams{Symbol: "AAPL261218C00230000", Date: d, MinTime: "09:30:00.000", MaxTime: "16:00:00.000", Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.OptionTradesWithGreeks(ctx, OptionTradesWithGreeksParams{Symbol: "AAPL", Date: "2026-11-20", MinTime: "09:30:00.000", MaxTime: "16:00:00.000"}))
		}},
	{EndpointScan, "custom-scanner", pathCustomScanner, false, [3]int{30, 50, 30},
		func(ctx context.Context, c *Client, m Mode, _ string) (*Response, error) {
			return respOf(c.CustomScan(ctx, ScanParams{Fields: []ScanFieldParam{{Formula: "iv30"}}, Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.CustomScan(ctx, ScanParams{}))
		}},
	{EndpointScannerMetadata, "custom-scanner-metadata", pathCustomScanner, false, [3]int{0, 0, 0},
		func(ctx context.Context, c *Client, m Mode, _ string) (*Response, error) {
			return respOf(c.ScannerMetadata(ctx, ReferenceParams{Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.ScannerMetadata(ctx, ReferenceParams{Mode: "historical"}))
		}},
	{EndpointCalendar, "calendar", "market/symbols/AAPL/calendar", false, [3]int{15, 15, 15},
		func(ctx context.Context, c *Client, m Mode, _ string) (*Response, error) {
			return respOf(c.Calendar(ctx, CalendarParams{Symbols: []string{"AAPL"}, Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.Calendar(ctx, CalendarParams{Symbols: []string{"AAPL", AllSymbols}}))
		}},
	{EndpointExchanges, "exchanges", pathExchanges, false, [3]int{0, 0, 0},
		func(ctx context.Context, c *Client, m Mode, _ string) (*Response, error) {
			return respOf(c.Exchanges(ctx, ReferenceParams{Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.Exchanges(ctx, ReferenceParams{Mode: "LIVE"}))
		}},
	{EndpointMessageConditions, "message-conditions", pathMessageConditions, false, [3]int{0, 0, 0},
		func(ctx context.Context, c *Client, m Mode, _ string) (*Response, error) {
			return respOf(c.MessageConditions(ctx, ReferenceParams{Mode: m}))
		}, func(ctx context.Context, c *Client) (*Response, error) {
			return respOf(c.MessageConditions(ctx, ReferenceParams{Mode: "eod"}))
		}},
}

// TestEndpointCostAndPoints checks every endpoint's price live, delayed and
// historical (2026-11-19 is before the clock's 2026-11-20), the mode in the
// path, and the points headers: read when sent, null when absent.
func TestEndpointCostAndPoints(t *testing.T) {
	cases := []struct {
		mode       Mode
		date       string
		col        int
		historical bool
	}{{Live, "2026-11-20", 0, false}, {Delayed, "2026-11-20", 1, false}, {Live, "2026-11-19", 2, true}, {Delayed, "2026-11-19", 2, true}}
	for _, ep := range endpointCalls {
		for i, tc := range cases {
			t.Run(fmt.Sprintf("%s/%s/%s", ep.ep, tc.mode, tc.date), func(t *testing.T) {
				c, mux, _ := setup(t)
				mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
					if want := "/v1/" + string(tc.mode) + "/" + ep.path; r.URL.Path != want {
						t.Errorf("path %s, want %s", r.URL.Path, want)
					}
					if i%2 == 0 { // the headers are sent for half the cases
						w.Header().Set("X-Monthly-Points-Used", "120")
						w.Header().Set("X-Monthly-Points-Left", "1249880")
					}
					_, _ = w.Write(fixture(t, ep.fixture+".json"))
				})
				resp, err := ep.call(t.Context(), c, tc.mode, tc.date)
				if err != nil {
					t.Fatal(err)
				}
				col, wantHist := tc.col, tc.historical && ep.dated
				if !ep.dated && tc.mode == Live {
					col = 0 // no date, never historical: the mode's price
				} else if !ep.dated {
					col = 1
				}
				wantCost := ep.cost[col]
				if resp.Cost != wantCost || resp.Historical != wantHist || resp.Mode != tc.mode || resp.Endpoint != ep.ep {
					t.Errorf("cost %d historical %v mode %s endpoint %s; want %d %v %s %s",
						resp.Cost, resp.Historical, resp.Mode, resp.Endpoint, wantCost, wantHist, tc.mode, ep.ep)
				}
				wantUsed, wantLeft := Some[int64](120), Some[int64](1249880)
				if i%2 != 0 {
					wantUsed, wantLeft = Int{}, Int{}
				}
				if resp.PointsUsed != wantUsed || resp.PointsLeft != wantLeft {
					t.Errorf("points %v/%v, want %v/%v", resp.PointsUsed, resp.PointsLeft, wantUsed, wantLeft)
				}
			})
		}
	}
}

// TestFixturesHaveEveryField checks that each fixture names every field of
// its resources at least once: the JSON keys and the XML elements of the
// types' tags (XML paths such as options>option count each element).
func TestFixturesHaveEveryField(t *testing.T) {
	cases := []struct {
		base     string
		types    []any
		extraXML []string // elements of shapes decoded by hand
	}{
		{"option-and-underlying-quotes", []any{SymbolWithOptions{}, OptionData{}}, nil},
		{"underlying-quotes", []any{Symbol{}}, []string{"symbols"}},
		{"option-trades", []any{OptionTrade{}}, []string{"option_trades", "option_trade"}},
		{"trades-and-quotes", []any{Trade{}, OptionQuote{}}, []string{"trades_and_quotes", "trade", "quote", "option_quote"}},
		{"option-trades-with-greeks", []any{OptionTradeWithGreeks{}}, []string{"option_trades", "trade_with_greeks"}},
		{"custom-scanner", []any{ScanResult{}, ScanFieldParam{}},
			[]string{"scan_result", "last_updated", "inputs", "scan_param", "output", "item", "symbol", "company_name", "fields", "field", "name", "value"}},
		{"custom-scanner-metadata", []any{ScannerMetadata{}, ScanField{}, ScanOperator{}}, []string{"scans_metadata"}},
		{"calendar", []any{EarningsEvent{}, DividendsEvent{}}, []string{"events", "event"}},
		{"exchanges", []any{Exchange{}}, []string{"exchanges", "exchange"}},
		{"message-conditions", []any{MessageCondition{}}, []string{"message_conditions", "message_condition"}},
	}
	for _, tc := range cases {
		var doc any
		if err := json.Unmarshal(fixture(t, tc.base+".json"), &doc); err != nil {
			t.Fatalf("%s.json: %v", tc.base, err)
		}
		keys := map[string]bool{}
		jsonKeys(doc, keys)
		elems := map[string]bool{}
		d := xml.NewDecoder(bytes.NewReader(fixture(t, tc.base+".xml")))
		for tok, err := d.Token(); err == nil; tok, err = d.Token() {
			if se, ok := tok.(xml.StartElement); ok {
				elems[se.Name.Local] = true
			}
		}
		wantXML := slices.Clone(tc.extraXML)
		for _, v := range tc.types {
			for _, f := range reflect.VisibleFields(reflect.TypeOf(v)) {
				if f.Anonymous {
					continue
				}
				if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && !keys[name] {
					t.Errorf("%s.json has no %s", tc.base, name)
				}
				if tag, _, _ := strings.Cut(f.Tag.Get("xml"), ","); tag != "" {
					wantXML = append(wantXML, strings.Split(tag, ">")...)
				}
			}
		}
		for _, name := range wantXML {
			if !elems[name] {
				t.Errorf("%s.xml has no element %s", tc.base, name)
			}
		}
	}
}

// jsonKeys adds every object key in v, at any depth, to keys.
func jsonKeys(v any, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			keys[k] = true
			jsonKeys(e, keys)
		}
	case []any:
		for _, e := range v {
			jsonKeys(e, keys)
		}
	}
}
