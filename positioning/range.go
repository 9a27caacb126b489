package positioning

import (
	"strconv"
	"time"

	"chainwatch/api"
)

// Kind is how a Range picks expiries.
type Kind int

// The kinds of range: the page cycles the first four (PageRanges);
// `chainwatch gex` has the others as flags.
const (
	// FirstFrom is the first expiry at least Days calendar days out, all
	// its roots: Days 0 is the nearest expiry, today's when one is listed
	// (0DTE). `gex --dte N`.
	FirstFrom Kind = iota
	// ThisWeek is every expiry up to the Friday of the day's week.
	ThisWeek
	// WithinDays is every expiry at most Days calendar days out
	// (`gex --max-dte N`).
	WithinDays
	// AllExpiries is the whole chain.
	AllExpiries
	// OnDate is the expiry on Date, all its roots (`gex --expiry D`).
	OnDate
)

// Range is the expiries the figures are summed over.
type Range struct {
	Kind Kind
	Days int
	Date api.Date
}

// PageRanges are the page's ranges, in the order its key cycles them:
// 0DTE, this week, 30 days, all.
var PageRanges = [...]Range{{Kind: FirstFrom}, {Kind: ThisWeek}, {Kind: WithinDays, Days: 30}, {Kind: AllExpiries}}

// Select is the indices into c.Exps of the expiries r takes, ascending.
func (r Range) Select(c *Chain) []int {
	var first api.Date // FirstFrom: the date found
	out := make([]int, 0, len(c.Exps))
	for i := range c.Exps {
		e := &c.Exps[i]
		take := false
		switch r.Kind {
		case FirstFrom:
			if first == 0 && e.DTE >= r.Days {
				first = e.Date
			}
			take = first != 0 && e.Date == first
		case ThisWeek:
			take = e.Date <= weekEnd(c.Day)
		case WithinDays:
			take = e.DTE <= r.Days
		case AllExpiries:
			take = true
		case OnDate:
			take = e.Date == r.Date
		}
		if take {
			out = append(out, i)
		}
	}
	return out
}

// weekEnd is the Friday of day's week (the next Friday from a weekend).
func weekEnd(day api.Date) api.Date {
	return day.AddDays((int(time.Friday) - int(day.Weekday()) + 7) % 7)
}

// Label names r as the page's key and the command's summary show it:
// "0DTE", "this week", "30 days", "all", "Dec18", "7+ DTE".
func (r Range) Label() string {
	switch r.Kind {
	case FirstFrom:
		if r.Days == 0 {
			return "0DTE"
		}
		return strconv.Itoa(r.Days) + "+ DTE"
	case ThisWeek:
		return "this week"
	case WithinDays:
		return strconv.Itoa(r.Days) + " days"
	case OnDate:
		return r.Date.String()
	}
	return "all"
}
