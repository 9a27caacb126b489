package sandbox

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"chainwatch/api"
	"chainwatch/sandbox/market"
	"chainwatch/sandbox/wire"
)

// The calendar's default range, as the spec gives it: from the first day
// of the service's data (api.EarliestDate) to 2100-01-01.
const (
	calendarFrom = api.EarliestDate
	calendarTo   = api.Date(21000101)
)

// calendarSymbols reads the {symbols} path segment. It is split on the
// literal commas of the escaped path before each symbol is unescaped, so
// that BRK%2FB is the one symbol BRK/B and an escaped comma (%2C) stays
// inside its symbol, where the symbol rules then refuse it.
func calendarSymbols(r *http.Request) ([]string, bool) {
	raw := r.URL.EscapedPath()
	_, rest, ok := strings.Cut(raw, "/market/symbols/")
	seg, ok2 := strings.CutSuffix(rest, "/calendar")
	if !ok || !ok2 {
		seg = url.PathEscape(r.PathValue("symbols"))
	}
	parts := strings.Split(seg, ",")
	for i, p := range parts {
		s, err := url.PathUnescape(p)
		if err != nil {
			return nil, false
		}
		parts[i] = s
	}
	return parts, true
}

// calendar serves the calendar: earnings and dividends of the symbols (or
// of every symbol, or every optionable one) from start_date to end_date,
// sorted by date and symbol. Unknown symbols are left out; nothing left is
// 204. It has no date parameter and costs the same in every mode.
func (d *dataService) calendar(w http.ResponseWriter, r *http.Request, c *call) {
	symbols, ok := calendarSymbols(r)
	if !ok {
		plainError(w, http.StatusBadRequest, "symbols must be comma-separated symbols, each path-escaped")
		return
	}
	q, ok := readQuery(w, r)
	if !ok {
		return
	}
	p := q.calendar(c.mode, symbols)
	if invalid(w, q, p.Validate()) {
		return
	}
	kind := p.EventType
	if kind == "" {
		kind = api.EventsAll
	}
	from, to := calendarFrom, calendarTo
	if p.StartDate != "" {
		from, _ = api.ParseDate(p.StartDate)
	}
	if p.EndDate != "" {
		to, _ = api.ParseDate(p.EndDate)
	}
	secs := d.calendarSecurities(symbols)
	today := api.Today(d.now())
	d.respond(w, c, c.cost(api.EndpointCalendar, false), func(b []byte) ([]byte, bool) {
		if len(secs) == 0 || from > to {
			return b, false
		}
		events := d.market.Calendar(secs, kind, from, to, today)
		if len(events) == 0 {
			return b, false
		}
		return wire.AppendCalendar(b, c.format, events), true
	})
}

// calendarSecurities resolves the symbols, once each, unknown ones left out.
func (d *dataService) calendarSecurities(symbols []string) []*market.Security {
	if len(symbols) == 1 {
		switch symbols[0] {
		case api.AllSymbols:
			return d.universe.All()
		case api.AllOptionableSymbols:
			return slices.DeleteFunc(slices.Clone(d.universe.All()), func(s *market.Security) bool { return !s.Optionable })
		}
	}
	var secs []*market.Security
	for _, sym := range symbols {
		if s, ok := d.universe.Lookup(sym); ok && !slices.Contains(secs, s) {
			secs = append(secs, s)
		}
	}
	return secs
}
