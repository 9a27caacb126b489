package feed

import (
	"math"
	"testing"

	"chainwatch/api"
)

func TestNextEvents(t *testing.T) {
	day := api.NewDate(2026, 11, 20)
	earn := func(sym string, d api.Date, tod api.ReportTime) api.CalendarEvent {
		return api.CalendarEvent{Kind: api.KindEarnings, Earnings: api.EarningsEvent{UnderlyingSymbol: sym, ReportDate: d, TimeOfDay: tod}}
	}
	div := func(sym string, d api.Date) api.CalendarEvent {
		return api.CalendarEvent{Kind: api.KindDividend, Dividend: api.DividendsEvent{UnderlyingSymbol: sym, ExDividendDate: d}}
	}
	next := Next([]api.CalendarEvent{
		earn("aapl", day.AddDays(70), api.AfterClose),
		earn("AAPL", day.AddDays(-20), api.AfterClose), // past: not next
		earn("AAPL", day.AddDays(160), api.BeforeOpen),
		div("AAPL", day.AddDays(10)),
		div("SPY", day.AddDays(30)),
		div("SPY", day), // today counts
		{},              // neither kind
	}, day)
	if got := next["AAPL"]; got != (NextEvents{Earnings: day.AddDays(70), EarningsTime: api.AfterClose, ExDividend: day.AddDays(10)}) {
		t.Errorf("AAPL %+v", got)
	}
	if d, e := next["AAPL"].Soonest(); d != day.AddDays(10) || e {
		t.Errorf("AAPL soonest %s %v", d, e)
	}
	if got := next["SPY"]; got.ExDividend != day || got.Earnings != 0 {
		t.Errorf("SPY %+v", got)
	}
	if d, e := (NextEvents{Earnings: day, ExDividend: day}).Soonest(); d != day || !e {
		t.Errorf("a tie is the report: %s %v", d, e)
	}
	if d, _ := (NextEvents{}).Soonest(); d != 0 {
		t.Errorf("none: %s", d)
	}
	if len(next) != 2 {
		t.Errorf("%d symbols", len(next))
	}
}

func TestQuoteRows(t *testing.T) {
	spy := api.Symbol{}
	spy.Symbol, spy.LastTradePrice, spy.PrevDayClose = "SPY", api.Some(510.0), api.Some(500.0)
	iwm := api.Symbol{}
	iwm.Symbol, iwm.ImpliedUnderlyingMid, iwm.PrevDayClose = "iwm", api.Some(198.0), api.Some(200.0)
	noPrev := api.Symbol{}
	noPrev.Symbol, noPrev.LastTradePrice = "QQQ", api.Some(400.0)
	next := map[string]NextEvents{"SPY": {ExDividend: api.NewDate(2026, 12, 19)}}
	rows := QuoteRows([]string{"SPY", "XYZ", "IWM", "QQQ"}, []api.Symbol{noPrev, iwm, spy}, next)
	if len(rows) != 4 || rows[0].Symbol != "SPY" || rows[1].Symbol != "XYZ" || rows[2].Symbol != "IWM" {
		t.Fatalf("order: %+v", rows)
	}
	if r := rows[0]; !r.Found || r.Price != 510 || r.Change != 10 || r.ChangePct != 2 || r.Implied || r.Next.ExDividend == 0 {
		t.Errorf("SPY %+v", r)
	}
	if r := rows[1]; r.Found || !math.IsNaN(r.Price) || !math.IsNaN(r.Change) || !math.IsNaN(r.ChangePct) {
		t.Errorf("unknown XYZ %+v", r)
	}
	if r := rows[2]; !r.Found || r.Price != 198 || !r.Implied || r.Change != -2 || r.ChangePct != -1 {
		t.Errorf("IWM %+v", r)
	}
	if r := rows[3]; r.Price != 400 || !math.IsNaN(r.Change) {
		t.Errorf("QQQ without a previous close %+v", r)
	}
}
