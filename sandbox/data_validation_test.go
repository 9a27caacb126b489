package sandbox_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"chainwatch/api"
	"chainwatch/market"
)

// rule is one broken rule sent to an endpoint, with the exact 400 body.
type rule struct {
	set  string // query pairs (a=b&c=d) laid over the endpoint's valid query; "a=" removes a
	want string
}

// overlay returns base with the pairs of set replacing its values; an
// empty value removes the parameter.
func overlay(t *testing.T, base, set string) string {
	t.Helper()
	q, err := url.ParseQuery(base)
	if err != nil {
		t.Fatal(err)
	}
	for pair := range strings.SplitSeq(set, "&") {
		k, v, _ := strings.Cut(pair, "=")
		if v == "" {
			q.Del(k)
			continue
		}
		if v, err = url.QueryUnescape(v); err != nil {
			t.Fatal(err)
		}
		q.Set(k, v)
	}
	return q.Encode()
}

// Every rule of the api package's Validate functions, and the server's own
// (depth, dates after today), per endpoint, answered 400 with the first
// broken rule as "<param> <rule>" and never charged.
func TestDataValidation(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil)
	long := strings.Repeat("A", 33)
	window := "&min_time=10:00:00.000&max_time=10:05:00.000"
	endpoints := []struct {
		path, base string
		rules      []rule
	}{
		{pathChain, "symbol=SPX&date=" + pastDay, []rule{
			{"symbol=", "symbol is required"},
			{"symbol=A%20B", `symbol "A B" has a character a symbol cannot hold`},
			{"symbol=" + long, `symbol "` + long + `" is longer than 32 characters`},
			{"date=", "date is required"},
			{"date=20240315", `date must be a date of the form yyyy-MM-dd, not "20240315"`},
			{"date=2002-12-31", "date must be 2003-01-01 or later: the service has no earlier data"},
			{"date=" + futureDay(), futureMessage()},
			{"root=ABCDEFG", `root "ABCDEFG" must be 1 to 6 letters or digits`},
			{"option_type=X", `option_type must be one of C, P, not "X"`},
			{"min_expiry=soon", `min_expiry must be a date of the form yyyy-MM-dd, not "soon"`},
			{"max_expiry=2024-3-1", `max_expiry must be a date of the form yyyy-MM-dd, not "2024-3-1"`},
			{"min_expiry=2024-04-01&max_expiry=2024-03-01", "min_expiry must be <= max_expiry"},
			{"min_strike=abc", `min_strike must be a number, not "abc"`},
			{"min_strike=0", "min_strike must be >= 0.01, not 0"},
			{"max_strike=NaN", "max_strike must be a finite number, not NaN"},
			{"max_strike=1e400", "max_strike must be a finite number, not +Inf"},
			{"min_strike=5000&max_strike=4000", "min_strike must be <= max_strike"},
		}},
		{pathUnderlying, "symbols=SPX,AAPL&date=" + pastDay, []rule{
			{"symbols=", "symbols is required: at least one symbol"},
			{"symbols=SPX,,AAPL", "symbols entry 2 is empty"},
			{"symbols=SPX,A%20B", `symbols "A B" has a character a symbol cannot hold`},
			{"date=", "date is required"},
			{"date=2010-12-31", "date must be 2011-01-01 or later: the service has no earlier data"},
			{"date=" + futureDay(), futureMessage()},
			{"seq_no=-1", "seq_no must be from 0 to 9223372036854775807, not -1"},
			{"seq_no=1.5", `seq_no must be an integer, not "1.5"`},
			{"seq_no=99999999999999999999", "seq_no must be from 0 to 9223372036854775807, not 99999999999999999999"},
		}},
		{pathTrades, "symbol=SPX&date=" + pastDay, []rule{
			{"symbol=", "symbol is required"},
			{"symbol=SPX%3B", `symbol "SPX;" has a character a symbol cannot hold`},
			{"date=", "date is required"},
			{"date=2002-12-31", "date must be 2003-01-01 or later: the service has no earlier data"},
			{"date=" + futureDay(), futureMessage()},
			{"root=SP-X", `root "SP-X" must be 1 to 6 letters or digits`},
			{"expiry=x", `expiry must be a date of the form yyyy-MM-dd, not "x"`},
			{"strike=0", "strike must be >= 0.01, not 0"},
			{"strike=abc", `strike must be a number, not "abc"`},
			{"option_type=call", `option_type must be one of C, P, not "call"`},
			{"min_time=10:00", `min_time must be a time of the form HH:mm:ss.fff, not "10:00"`},
			{"max_time=25:00:00.000", `max_time must be a time from 00:00:00.000 to 23:59:59.999 of the form HH:mm:ss.fff, not "25:00:00.000"`},
			{"min_time=11:00:00.000&max_time=10:00:00.000", "min_time must be <= max_time"},
			{"seq_no=-1", "seq_no must be from 0 to 9223372036854775807, not -1"},
			{"exchange_id=256", "exchange_id must be from 0 to 255, not 256"},
			{"exchange_id=x", `exchange_id must be an integer, not "x"`},
			{"condition_id=-1", "condition_id must be from 0 to 255, not -1"},
			{"limit=10001", "limit must be from 0 to 10000, not 10001"},
			{"min_size=-1", "min_size must be from 0 to 2147483647, not -1"},
			{"max_size=2147483648", "max_size must be from 0 to 2147483647, not 2147483648"},
			{"min_size=5&max_size=4", "min_size must be <= max_size"},
			{"min_price=-1", "min_price must be >= 0, not -1"},
			{"max_price=x", `max_price must be a number, not "x"`},
			{"min_price=2&max_price=1", "min_price must be <= max_price"},
		}},
		{pathTAQ, "symbol=AAPL&date=" + pastDay + window, []rule{
			{"symbol=", "symbol is required"},
			{"date=", "date is required"},
			{"date=2002-12-31", "date must be 2003-01-01 or later: the service has no earlier data"},
			{"date=" + futureDay(), futureMessage()},
			{"min_time=", "min_time is required"},
			{"max_time=", "max_time is required"},
			{"max_time=10:00:00", `max_time must be a time of the form HH:mm:ss.fff, not "10:00:00"`},
			{"min_time=10:05:00.001", "min_time must be <= max_time"},
			{"mode=ALL", `mode must be one of ALL_QUOTES, NBBO_CHANGES, QUOTES_ON_NBBO, not "ALL"`},
			{"quote_condition_id=1,300", "quote_condition_id entry 2 must be from 0 to 255, not 300"},
			{"trade_condition_id=x", `trade_condition_id entry 1 must be an integer, not "x"`},
			{"condition_id=-1", "condition_id entry 1 must be from 0 to 255, not -1"},
			{"start_sequence_number=-1", "start_sequence_number must be from 0 to 9223372036854775807, not -1"},
			{"exchange_id=256", "exchange_id must be from 0 to 255, not 256"},
			{"limit=10001", "limit must be from 0 to 10000, not 10001"},
			{"order_by_time=UP", `order_by_time must be one of ASC, DESC, not "UP"`},
		}},
		{pathGreeks, "symbol=SPXW240315C05100000&date=" + pastDay + window, []rule{
			{"symbol=", "symbol is required"},
			{"symbol=SPX", `symbol must be an OSI option symbol (root, yymmdd, C or P, strike x 1000 in 8 digits): "SPX" too short for root, yymmdd, C or P, and an 8-digit strike`},
			{"date=", "date is required"},
			{"date=2002-12-31", "date must be 2003-01-01 or later: the service has no earlier data"},
			{"date=" + futureDay(), futureMessage()},
			{"min_time=", "min_time is required"},
			{"max_time=", "max_time is required"},
			{"exchange_id=300", "exchange_id must be from 0 to 255, not 300"},
			{"condition_id=256", "condition_id must be from 0 to 255, not 256"},
			{"min_size=-1", "min_size must be from 0 to 2147483647, not -1"},
			{"min_size=5&max_size=4", "min_size must be <= max_size"},
			{"min_price=-0.5", "min_price must be >= 0, not -0.5"},
			{"min_price=2&max_price=1", "min_price must be <= max_price"},
			{"start_sequence_number=x", `start_sequence_number must be an integer, not "x"`},
			{"limit=100001", "limit must be from 0 to 100000, not 100001"},
			{"order_by_time=asc", `order_by_time must be one of ASC, DESC, not "asc"`},
		}},
		{"market/symbols/SPX/calendar", "", []rule{
			{"event_type=splits", `event_type must be one of all, earnings, dividends, not "splits"`},
			{"start_date=2024", `start_date must be a date of the form yyyy-MM-dd, not "2024"`},
			{"end_date=x", `end_date must be a date of the form yyyy-MM-dd, not "x"`},
			{"start_date=2025-01-01&end_date=2024-01-01", "start_date must be <= end_date"},
			{"start_date=1999-01-04&end_date=2002-12-31", "end_date must be 2003-01-01 or later: the service has no earlier data"},
		}},
	}
	for _, ep := range endpoints {
		for _, r := range ep.rules {
			resp, body := e.getLive(ep.path, overlay(t, ep.base, r.set))
			wantError(t, ep.path+" "+r.set, resp, body, http.StatusBadRequest, r.want)
			if used, _ := points(t, ep.path, resp); used != 0 {
				t.Fatalf("%s %s: a 400 was charged (%d points used)", ep.path, r.set, used)
			}
		}
	}

	// The calendar's symbols are a path segment, split on its literal commas.
	for seg, want := range map[string]string{
		"all_symbols,SPX": "symbols all_symbols must be the only entry",
		"SPX,,AAPL":       "symbols entry 2 is empty",
		"SPX,A%20B":       `symbols "A B" has a character a symbol cannot hold`,
		"A%2CB":           `symbols "A,B" has a character a symbol cannot hold`,
	} {
		resp, body := e.getLive("market/symbols/"+seg+"/calendar", "")
		wantError(t, "calendar "+seg, resp, body, http.StatusBadRequest, want)
	}
}

// TestEarliestDayIsServed is the other side of the bound: at the first
// trading day of the service's data (2003-01-02; 2003-01-01 is a holiday),
// or the underlying quotes' (2011-01-03), every endpoint that takes a
// date answers with data, so the 400 above is the bound and not a broken
// endpoint.
func TestEarliestDayIsServed(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil)
	first := market.NextTradingDay(api.EarliestDate.AddDays(-1)).String()
	window := "&min_time=09:30:00.000&max_time=16:00:00.000"
	resp, body := e.getLive(pathChain, "symbol=SPX&min_strike=800&max_strike=1000&max_expiry=2003-03-31&date="+first)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("chain of %s: %d %s", first, resp.StatusCode, body)
	}
	osi := firstOSI(t, body)
	for _, c := range []struct{ path, query string }{
		{pathUnderlying, "symbols=SPX&date=2011-01-03"},
		{pathTrades, "symbol=SPX&date=" + first},
		{pathTAQ, "symbol=AAPL&date=" + first + window},
		{pathGreeks, "symbol=" + osi + "&date=" + first + window},
		{"market/symbols/AAPL/calendar", "start_date=1999-01-04&end_date=2003-12-31"},
	} {
		if resp, body := e.getLive(c.path, c.query); resp.StatusCode != http.StatusOK {
			t.Errorf("%s?%s: %d %.200s", c.path, c.query, resp.StatusCode, body)
		}
	}
}

// firstOSI is the OSI symbol of the most traded contract of a chain's JSON
// body, one that has trades on that day.
func firstOSI(t *testing.T, body string) string {
	t.Helper()
	var chain struct {
		Options []struct {
			Symbol string `json:"option"`
			Volume int64  `json:"option_volume"`
		} `json:"options"`
	}
	if err := json.Unmarshal([]byte(body), &chain); err != nil {
		t.Fatal(err)
	}
	best, vol := "", int64(-1)
	for _, o := range chain.Options {
		if o.Volume > vol {
			best, vol = o.Symbol, o.Volume
		}
	}
	if vol <= 0 {
		t.Fatalf("no traded contract among %d", len(chain.Options))
	}
	return best
}
