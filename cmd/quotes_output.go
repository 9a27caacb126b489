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
	"iv_rank", "iv_percentile", "hv10", "hv20", "hv30", "iv30_hv30",
}

// quotesExport is the outcome as the exporter prints it: a row per known
// symbol (the unknown ones are named on stderr); the table the watchlist
// page's columns.
func quotesExport(out quotesOutcome) Export {
	e := Export{
		Keys: quotesKeys,
		Table: Table{
			Head:    []string{"SYMBOL", "LAST", "CHG", "CHG%", "BID", "ASK", "VOLUME", "IV30", "IVCHG", "IVR", "IV%ILE", "HV30", "IMPLIED", "NEXT EVENT"},
			Numeric: []bool{false, true, true, true, true, true, true, true, true, true, true, true, false, false},
		},
	}
	for _, r := range out.Rows {
		q := &r.Quote
		e.Records = append(e.Records, []any{
			r.Symbol, timeOrNil(q.Timestamp), nullable(q.LastTradePrice), num(round(r.Change, 6)), num(round(r.ChangePct, 4)),
			nullable(q.Bid), nullable(q.BidSize), nullable(q.Ask), nullable(q.AskSize),
			nullable(q.Open), nullable(q.High), nullable(q.Low), nullable(q.PrevDayClose), nullable(q.Volume),
			ivFraction(q.IV30), ivFraction(q.IV30Change), nullable(q.IV30ChangePercent),
			nullable(q.ImpliedUnderlyingBid), nullable(q.ImpliedUnderlyingAsk), nullable(q.ImpliedUnderlyingMid),
			indicatorOrNil(q.ImpliedUnderlyingIndicator),
			dateOrNil(r.Next.Earnings), dateOrNil(r.Next.ExDividend),
			num(round(r.Past.IVRank, 2)), num(round(r.Past.IVPercentile, 2)),
			num(iv(r.Past.HV10)), num(iv(r.Past.HV20)), num(iv(r.Past.HV30)), num(round(r.Past.IVHV, 4)),
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
		signed(api.OrNaN(q.IV30Change), 2), fixedNum(r.Past.IVRank, 0), fixedNum(r.Past.IVPercentile, 0), pct(r.Past.HV30, 1),
		strings.ToUpper(string(q.ImpliedUnderlyingIndicator.V)), event}
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

// quotesRowsText starts the stderr line after the rows: how many
// symbols (the points follow, as for every command).
func quotesRowsText(out quotesOutcome) string {
	if n := len(out.Rows); n != 1 {
		return fmt.Sprintf("%d symbols", n)
	}
	return "1 symbol"
}

// ivFraction is an IV the service sends in percentage points (iv30,
// iv30_change: 22.08) as the fraction every --json and --csv output uses
// for IV (0.2208), as the service sends an option's iv; null stays null.
func ivFraction(v api.Float) any {
	if !v.Valid {
		return nil
	}
	return num(round(v.V/100, 8))
}
