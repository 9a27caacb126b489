package cmd

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"chainwatch/api"
	"chainwatch/scan"
	"chainwatch/tas"
)

// tradesResult is what a trades run fetched: the trades (one contract's
// from option-trades-with-greeks, or an underlying's with their
// contracts from option-trades), the pages and their points.
type tradesResult struct {
	trades    []tas.Trade
	contracts []api.OptionTrade // an underlying's run: the records, for their contract fields
	pages     int
	points    int
	left      api.Int
}

// add counts a page's points and keeps the month's balance it reported.
func (r *tradesResult) add(resp *api.Response) {
	r.pages++
	r.points += max(resp.Cost, 0)
	if resp.PointsLeft.Valid {
		r.left = resp.PointsLeft
	}
}

// optionKey names an option trade's contract: the OSI symbol it carries,
// else one built from its fields.
func optionKey(o *api.OptionTrade) string {
	if o.Security.Valid {
		if s, err := api.ParseOSI(o.Security.V); err == nil {
			return s.String()
		}
	}
	return api.OSI{Root: o.Root, Expiry: o.Expiry, Type: o.OptionType, StrikeMilli: int64(math.Round(o.Strike * 1000))}.String()
}

// num is a float for the exporter: nil (null) when unknown.
func num(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// cents is a premium in dollars, rounded to the cent.
func cents(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return math.Round(v*100) / 100
}

// tradesExport is a trades run as the exporter prints it. Keys are the
// service's field names of the endpoint read, plus premium (dollars:
// price x size x 100) and, for option-trades-with-greeks, which does not
// send it, option_trade_at classified from the price and the NBBO.
func tradesExport(q tradesQuery, r *tradesResult, names exchangeNames) Export {
	var e Export
	if q.isOSI {
		e.Keys = []string{"time", "sequence_number", "size", "price", "option_trade_at", "nbbo_bid", "nbbo_ask",
			"iv", "delta", "gamma", "theta", "vega", "underlying_bid", "underlying_ask",
			"exchange_id", "exchange", "condition_id", "flag", "premium"}
		e.Table.Head = []string{"TIME", "SIZE", "PRICE", "SIDE", "IV", "DELTA", "UNDERLYING", "PREMIUM", "EXCH", "CANCEL"}
		e.Table.Numeric = []bool{false, true, true, false, true, true, true, true, false, false}
	} else {
		e.Keys = []string{"timestamp", "seq_no", "security", "option_trade_size", "option_trade_price", "option_trade_at",
			"option_bid", "option_ask", "underlying_bid", "underlying_ask", "exchange_id", "exchange", "condition_id", "cancel_flag", "premium"}
		e.Table.Head = []string{"TIME", "CONTRACT", "SIZE", "PRICE", "SIDE", "BID", "ASK", "PREMIUM", "EXCH", "CANCEL"}
		e.Table.Numeric = []bool{false, false, true, true, false, true, true, true, false, false}
	}
	// Newest last, as the service sends them: a script appends.
	for i := range r.trades {
		t := &r.trades[i]
		side := string(t.At)
		if q.isOSI {
			e.Records = append(e.Records, []any{t.Time.String(), t.Seq, t.Size, num(t.Price), side, num(t.Bid), num(t.Ask),
				num(t.IV), num(t.Delta), num(t.Gamma), num(t.Theta), num(t.Vega), num(t.UndBid), num(t.UndAsk),
				t.Exchange, names.value(t.Exchange), t.Condition, int(t.Cancel), cents(t.Premium())})
			e.Table.Rows = append(e.Table.Rows, []string{t.Time.String(), strconv.FormatInt(t.Size, 10), priceText(t.Price), side,
				pctText(t.IV), greekText(t.Delta), priceText(t.Underlying()), moneyText(t.Premium()),
				names.text(t.Exchange), cancelText(t.Cancel)})
			continue
		}
		e.Records = append(e.Records, []any{t.Time.String(), t.Seq, t.Key, t.Size, num(t.Price), side, num(t.Bid), num(t.Ask),
			num(t.UndBid), num(t.UndAsk), t.Exchange, names.value(t.Exchange), t.Condition, int(t.Cancel), cents(t.Premium())})
		e.Table.Rows = append(e.Table.Rows, []string{t.Time.String(), t.Key, strconv.FormatInt(t.Size, 10), priceText(t.Price), side,
			priceText(t.Bid), priceText(t.Ask), moneyText(t.Premium()), names.text(t.Exchange), cancelText(t.Cancel)})
	}
	return e
}

// tradesRowsText starts the stderr line after a run: the day's figures
// (the points follow, as for every command).
func tradesRowsText(q tradesQuery, r *tradesResult, s *tas.Summary, limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s trades of %s on %s from %s: volume %s (bid %s, mid %s, ask %s), premium %s",
		scan.GroupDigits(int64(s.Trades)), q.symbol, q.day, clockText(q.since), scan.GroupDigits(s.Volume),
		scan.GroupDigits(s.VolBid), scan.GroupDigits(s.VolMid), scan.GroupDigits(s.VolAsk), moneyText(s.Premium))
	if s.HasLargest {
		fmt.Fprintf(&b, ", largest %d @ %s %s", s.Largest.Size, priceText(s.Largest.Price), s.Largest.At)
	}
	fmt.Fprintf(&b, ", %s, %s", plural(s.Blocks, "block"), plural(s.Sweeps, "sweep"))
	if len(r.trades) >= limit {
		fmt.Fprintf(&b, "; stopped at --limit %d", limit)
	}
	return b.String()
}

func priceText(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func pctText(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v*100, 'f', 1, 64) + "%"
}

func greekText(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// moneyText is dollars with thousands grouped: $18,350.
func moneyText(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return "$" + scan.GroupDigits(int64(math.Round(v)))
}

func cancelText(f api.CancelFlag) string {
	switch f {
	case api.TradeCanceled:
		return "canceled"
	case api.TradeCancel:
		return "cancel"
	}
	return ""
}

// plural is "1 block", "3 blocks".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return scan.GroupDigits(int64(n)) + " " + word + "s"
}
