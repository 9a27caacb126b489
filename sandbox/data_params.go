package sandbox

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"chainwatch/api"
)

// The data endpoints read their query into the api package's params
// structs and validate them with the very rules the client applies before
// sending (api/validate.go), so client and sandbox cannot disagree on what
// is valid. The query reader only turns text into the structs' types; a
// value that is not even of the parameter's type is the first broken rule.

// query reads typed parameters and remembers the first that does not
// parse. An empty value is an absent parameter; of a repeated one the
// first counts, as url.Values.Get does.
type query struct {
	v   url.Values
	bad *api.ValidationError
}

func newQuery(raw string) (*query, error) {
	v, err := url.ParseQuery(raw)
	if err != nil {
		return nil, errors.New("the query string is malformed: " + err.Error())
	}
	return &query{v: v}, nil
}

func (q *query) fail(param, format string, args ...any) {
	if q.bad == nil {
		q.bad = &api.ValidationError{Param: param, Rule: fmt.Sprintf(format, args...)}
	}
}

func (q *query) str(name string) string { return q.v.Get(name) }

// float reads a decimal. Overflow becomes an infinity, which the rules
// then refuse as not finite.
func (q *query) float(name string) *float64 {
	s := q.v.Get(name)
	if s == "" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		q.fail(name, "must be a number, not %q", clip(s))
		return nil
	}
	return &f
}

// int64 reads an integer; lo and hi are only for the message of a value
// too large for any integer type, which the rules never get to see.
func (q *query) int64(name string, lo, hi int64) *int64 {
	s := q.v.Get(name)
	if s == "" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		q.fail(name, "must be from %d to %d, not %s", lo, hi, clip(s))
		return nil
	case err != nil:
		q.fail(name, "must be an integer, not %q", clip(s))
		return nil
	}
	return &n
}

func (q *query) int(name string, lo, hi int64) *int {
	p := q.int64(name, lo, hi)
	if p == nil {
		return nil
	}
	n := int(*p)
	return &n
}

// ids reads a comma-separated list of byte ids (condition ids).
func (q *query) ids(name string) []int {
	s := q.v.Get(name)
	if s == "" {
		return nil
	}
	var out []int
	for i, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			q.fail(name, "entry %d must be an integer, not %q", i+1, clip(part))
			return nil
		}
		out = append(out, n)
	}
	return out
}

// boolean reads true or false (strconv's spellings: 1, t, TRUE, ...).
func (q *query) boolean(name string) bool {
	s := q.v.Get(name)
	if s == "" {
		return false
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		q.fail(name, "must be true or false, not %q", clip(s))
	}
	return b
}

// clip keeps an echoed value short: error bodies are one line.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// firstRule is the service's 400 body for a Validate error: the first
// broken rule as "<param> <rule>".
func firstRule(err error) string {
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		return ve.Param + " " + ve.Rule
	}
	return err.Error()
}

const maxInt64 = math.MaxInt64

func (q *query) optionQuotes(m api.Mode) api.OptionQuotesParams {
	return api.OptionQuotesParams{
		Symbol: q.str("symbol"), Date: q.str("date"), Root: q.str("root"),
		OptionType: api.OptionType(q.str("option_type")),
		MinExpiry:  q.str("min_expiry"), MaxExpiry: q.str("max_expiry"),
		MinStrike: q.float("min_strike"), MaxStrike: q.float("max_strike"),
		Mode: m,
	}
}

func (q *query) underlyingQuotes(m api.Mode) api.UnderlyingQuotesParams {
	p := api.UnderlyingQuotesParams{Date: q.str("date"), SeqNo: q.int64("seq_no", 0, maxInt64), Mode: m}
	if s := q.str("symbols"); s != "" {
		p.Symbols = strings.Split(s, ",")
	}
	return p
}

func (q *query) optionTrades(m api.Mode) api.OptionTradesParams {
	return api.OptionTradesParams{
		Symbol: q.str("symbol"), Date: q.str("date"), Root: q.str("root"),
		Expiry: q.str("expiry"), Strike: q.float("strike"),
		OptionType: api.OptionType(q.str("option_type")),
		MinTime:    q.str("min_time"), MaxTime: q.str("max_time"),
		SeqNo:       q.int64("seq_no", 0, maxInt64),
		ExchangeID:  q.int("exchange_id", 0, 255),
		ConditionID: q.int("condition_id", 0, 255),
		Limit:       q.int("limit", 0, 10000),
		MinSize:     q.int64("min_size", 0, math.MaxInt32), MaxSize: q.int64("max_size", 0, math.MaxInt32),
		MinPrice: q.float("min_price"), MaxPrice: q.float("max_price"),
		Mode: m,
	}
}

func (q *query) tradesAndQuotes(m api.Mode) api.TradesAndQuotesParams {
	return api.TradesAndQuotesParams{
		Symbol: q.str("symbol"), Date: q.str("date"),
		MinTime: q.str("min_time"), MaxTime: q.str("max_time"),
		TAQMode:             api.TAQMode(q.str("mode")),
		QuoteConditionIDs:   q.ids("quote_condition_id"),
		TradeConditionIDs:   q.ids("trade_condition_id"),
		ConditionIDs:        q.ids("condition_id"),
		StartSequenceNumber: q.int64("start_sequence_number", 0, maxInt64),
		ExchangeID:          q.int("exchange_id", 0, 255),
		Limit:               q.int("limit", 0, 10000),
		OrderByTime:         api.Order(q.str("order_by_time")),
		Mode:                m,
	}
}

func (q *query) tradesWithGreeks(m api.Mode) api.OptionTradesWithGreeksParams {
	return api.OptionTradesWithGreeksParams{
		Symbol: q.str("symbol"), Date: q.str("date"),
		MinTime: q.str("min_time"), MaxTime: q.str("max_time"),
		ExchangeID:  q.int("exchange_id", 0, 255),
		ConditionID: q.int("condition_id", 0, 255),
		MinSize:     q.int64("min_size", 0, math.MaxInt32), MaxSize: q.int64("max_size", 0, math.MaxInt32),
		MinPrice: q.float("min_price"), MaxPrice: q.float("max_price"),
		StartSequenceNumber: q.int64("start_sequence_number", 0, maxInt64),
		Limit:               q.int("limit", 0, 100000),
		OrderByTime:         api.Order(q.str("order_by_time")),
		Mode:                m,
	}
}

func (q *query) calendar(m api.Mode, symbols []string) api.CalendarParams {
	return api.CalendarParams{
		Symbols: symbols, EventType: api.EventType(q.str("event_type")),
		StartDate: q.str("start_date"), EndDate: q.str("end_date"), Mode: m,
	}
}
