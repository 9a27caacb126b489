package cmd

import (
	"fmt"
	"math"
	"strings"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/scan"
)

// quotesOutcome is what `chainwatch quotes` fetched: the rows of the
// symbols the service knows, those it does not, and the two replies.
type quotesOutcome struct {
	Query   feed.Query
	Day     api.Date // the session shown
	Rows    []feed.QuoteRow
	Missing []string
	Quotes  feed.QuotesMsg
	Events  *feed.EventsMsg // nil: not asked for (--events=false)
}

// quotesKeys are a row's keys in JSON and CSV: the service's field names,
// then what the page derives: change and change_percent (the price
// against the previous close; the price is the last trade, else the
// quote's mid, else the implied mid), the next report_date and
// ex_dividend_date.
var quotesKeys = []string{
	"symbol", "timestamp", "underlying_last_trade_price", "change", "change_percent",
	"underlying_bid", "underlying_bid_size", "underlying_ask", "underlying_ask_size",
	"underlying_open", "underlying_high", "underlying_low", "underlying_prev_day_close", "underlying_volume",
	"iv30", "iv30_change", "iv30_change_percent",
	"implied_underlying_bid", "implied_underlying_ask", "implied_underlying_mid", "implied_underlying_indicator",
	"report_date", "ex_dividend_date",
}

// quotesExport is the outcome as the exporter prints it. JSON:
// {"date","mode","points","missing","rows"}; CSV the rows; the table the
// watchlist page's columns.
func quotesExport(out quotesOutcome) Export {
	missing := out.Missing
	if missing == nil {
		missing = []string{}
	}
	e := Export{
		Meta: []Field{{"date", out.Day.String()}, {"mode", out.Query.Mode}, {"points", quotesPoints(out)}, {"missing", missing}},
		Keys: quotesKeys,
		Table: Table{
			Head:    []string{"SYMBOL", "LAST", "CHG", "CHG%", "BID", "ASK", "VOLUME", "IV30", "IVCHG", "IMPLIED", "NEXT EVENT"},
			Numeric: []bool{false, true, true, true, true, true, true, true, true, false, false},
		},
	}
	for _, r := range out.Rows {
		q := &r.Quote
		e.Records = append(e.Records, []any{
			r.Symbol, timeOrNil(q.Timestamp), floatOrNil(q.LastTradePrice), num(round(r.Change, 6)), num(round(r.ChangePct, 4)),
			floatOrNil(q.Bid), intOrNil(q.BidSize), floatOrNil(q.Ask), intOrNil(q.AskSize),
			floatOrNil(q.Open), floatOrNil(q.High), floatOrNil(q.Low), floatOrNil(q.PrevDayClose), intOrNil(q.Volume),
			floatOrNil(q.IV30), floatOrNil(q.IV30Change), floatOrNil(q.IV30ChangePercent),
			floatOrNil(q.ImpliedUnderlyingBid), floatOrNil(q.ImpliedUnderlyingAsk), floatOrNil(q.ImpliedUnderlyingMid),
			indicatorOrNil(q.ImpliedUnderlyingIndicator),
			dateOrNil(r.Next.Earnings), dateOrNil(r.Next.ExDividend),
		})
		e.Table.Rows = append(e.Table.Rows, quotesTableRow(r))
	}
	return e
}

// quotesTableRow is a row as the page shows it: "~" before an implied
// price, signed changes, IV30 in percent, the badge's word, the sooner
// of the next report and ex-dividend date.
func quotesTableRow(r feed.QuoteRow) []string {
	q := &r.Quote
	last := price(r.Price)
	if r.Implied && last != "" {
		last = "~" + last
	}
	chgPct := signed(r.ChangePct, 2)
	if chgPct != "" {
		chgPct += "%"
	}
	iv := ""
	if v, ok := q.IV30.Get(); ok {
		iv = scan.NumberText(v, 2) + "%"
	}
	vol := ""
	if v, ok := q.Volume.Get(); ok {
		vol = scan.GroupDigits(v)
	}
	event := ""
	if d, earnings := r.Next.Soonest(); d != 0 {
		event = "div " + d.String()
		if earnings {
			event = "earn " + d.String()
			if r.Next.EarningsTime != "" {
				event += " " + string(r.Next.EarningsTime)
			}
		}
	}
	return []string{r.Symbol, last, signed(r.Change, 2), chgPct, price(api.OrNaN(q.Bid)), price(api.OrNaN(q.Ask)), vol, iv,
		signed(api.OrNaN(q.IV30Change), 2), strings.ToUpper(string(q.ImpliedUnderlyingIndicator.V)), event}
}

// price is a price with two decimals, "" for null (the table shows "-").
func price(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return scan.NumberText(v, 2)
}

// signed is v with its sign, "" for null; a value that rounds to zero has
// none, so an unchanged figure does not read as a move.
func signed(v float64, decimals int) string {
	if math.IsNaN(v) {
		return ""
	}
	s := scan.NumberText(v, decimals)
	if v > 0 && strings.Trim(s, "0.,") != "" {
		s = "+" + s
	}
	return s
}

// round drops the binary noise of a difference (1.8999999999999773 is
// 1.9): decimals more than a price or a percentage needs.
func round(v float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(v*p) / p
}

func num(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

func floatOrNil(v api.Float) any {
	if !v.Valid {
		return nil
	}
	return num(v.V)
}

func intOrNil(v api.Int) any {
	if !v.Valid {
		return nil
	}
	return v.V
}

func dateOrNil(d api.Date) any {
	if d == 0 {
		return nil
	}
	return d.String()
}

func timeOrNil(t api.TimeOfDay) any {
	if t < 0 {
		return nil
	}
	return t.String()
}

func indicatorOrNil(v api.Null[api.Indicator]) any {
	if !v.Valid {
		return nil
	}
	return string(v.V)
}

// quotesPoints is what the run cost: the quotes, and the events if asked.
func quotesPoints(out quotesOutcome) int {
	n := 0
	for _, r := range []*api.Response{out.Quotes.Resp, eventsResp(out)} {
		if r != nil {
			n += r.Cost
		}
	}
	return n
}

func eventsResp(out quotesOutcome) *api.Response {
	if out.Events == nil {
		return nil
	}
	return out.Events.Resp
}

// quotesSummary is the stderr line after the rows: how many, the points
// spent (quotes + events), the points left this month when the service
// said.
func quotesSummary(out quotesOutcome) string {
	var b strings.Builder
	n := len(out.Rows)
	fmt.Fprintf(&b, "chainwatch: %d symbol", n)
	if n != 1 {
		b.WriteString("s")
	}
	if r := out.Quotes.Resp; r != nil {
		fmt.Fprintf(&b, ", %d points spent", quotesPoints(out))
		if ev := eventsResp(out); ev != nil {
			fmt.Fprintf(&b, " (%d quotes + %d events)", r.Cost, ev.Cost)
		}
		left := r.PointsLeft
		if ev := eventsResp(out); ev != nil && ev.PointsLeft.Valid {
			left = ev.PointsLeft
		}
		if v, ok := left.Get(); ok {
			fmt.Fprintf(&b, ", %s points left this month", scan.GroupDigits(v))
		}
	}
	return b.String()
}
