package sim

import (
	"cmp"
	"slices"

	"chainwatch/api"
	"chainwatch/sandbox/market"
)

// Calendar returns the earnings reports and dividends of securities from
// `from` to `to` (inclusive, as market gives them; eps_actual only for
// reports before today), sorted by date, then symbol, earnings before
// dividends on the same day. kind all (or empty), earnings or dividends.
func (m *Market) Calendar(securities []*market.Security, kind api.EventType, from, to, today api.Date) []api.CalendarEvent {
	out := []api.CalendarEvent{}
	for _, s := range securities {
		if kind != api.EventsDividends {
			for _, e := range m.u.Earnings(s, from, to, today) {
				out = append(out, api.CalendarEvent{Kind: api.KindEarnings, Earnings: e})
			}
		}
		if kind != api.EventsEarnings {
			for _, d := range m.u.Dividends(s, from, to) {
				out = append(out, api.CalendarEvent{Kind: api.KindDividend, Dividend: d})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b api.CalendarEvent) int {
		return cmp.Or(cmp.Compare(a.Date(), b.Date()), cmp.Compare(a.Symbol(), b.Symbol()), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}
