package chain

import (
	"math"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/ui"
	"chainwatch/vol"
)

// The held chain as the vol figures read it: the expiry strip under the
// tabs and the vol page compute from the chain the ladder already holds,
// which costs no points. It is converted once per change of the chain
// (or of the day), not on every frame, into buffers kept between changes.

// volCache is the held chain in vol's shape, with each expiry's ATM
// figures for the strip.
type volCache struct {
	ver  uint64   // Model.ver it was built for; 0: never
	day  api.Date // the day the data shows when it was built
	surf vol.Surface
	rows []vol.Row // one buffer behind every expiry's rows
	atm  []atmFigs // per expiry of surf
}

type atmFigs struct{ iv, move float64 }

// surface returns the held chain for day, converting it again only when
// it changed since the last call.
func (c *Model) surface(day api.Date) *vol.Surface {
	vc := &c.vc
	if vc.ver == c.ver && vc.day == day && c.ver != 0 {
		return &vc.surf
	}
	vc.ver, vc.day = c.ver, day
	s := &vc.surf
	*s = vol.Surface{Symbol: c.q.Symbol, Day: day, Spot: c.Spot(), Exps: s.Exps[:0]}
	if c.st.hasUnd {
		s.IV30 = vol.IV30Of(&c.st.und)
	} else {
		s.IV30 = vol.IV30{Now: math.NaN(), Change: math.NaN(), ChangePct: math.NaN()}
	}
	n := 0
	for _, e := range c.st.exps {
		if e.date >= day {
			n += len(e.rows)
		}
	}
	if cap(vc.rows) < n {
		vc.rows = make([]vol.Row, 0, n+n/8)
	}
	vc.rows = vc.rows[:0]
	vc.atm = vc.atm[:0]
	for _, e := range c.st.exps {
		if e.date < day {
			continue // settled: not a tab, not on the page
		}
		start := len(vc.rows)
		for i := range e.rows {
			r := &e.rows[i]
			vc.rows = append(vc.rows, vol.Row{Strike: r.Strike, Call: quoteOf(&r.Call), Put: quoteOf(&r.Put)})
		}
		rows := vc.rows[start:len(vc.rows):len(vc.rows)]
		s.Exps = append(s.Exps, vol.Expiry{Date: e.date, DTE: day.DaysUntil(e.date), Rows: rows})
		_, iv, move := vol.ATM(rows, s.Spot)
		vc.atm = append(vc.atm, atmFigs{iv, move})
	}
	return s
}

func quoteOf(k *ui.Contract) vol.Quote {
	return vol.Quote{Bid: k.Bid, Ask: k.Ask, Mid: k.Mid, IV: k.IV, Delta: k.Delta, Volume: k.Volume, OI: k.OI}
}

// Surface is the held chain as the vol figures read it, for the vol page:
// every expiry still trading on the day the data shows, the selected one
// as fresh as the ladder's last refresh, the others as of FullAt. It is
// valid until the next chain reply is applied; the root hands the page a
// new one then.
func (c *Model) Surface() *vol.Surface {
	return c.surface(feed.ShownDay(c.q, c.sh.Now()))
}

// FullAt is when the last whole chain (every expiry) was applied; zero
// when none has been.
func (c *Model) FullAt() time.Time { return c.fullAt }

// CursorStrike is the strike under the ladder's cursor; NaN when the
// ladder has no rows.
func (c *Model) CursorStrike() float64 {
	if r, _ := c.selected(); r != nil {
		return r.Strike
	}
	return math.NaN()
}

// Earnings is the next earnings report the tabs mark; 0 when none is known.
func (c *Model) Earnings() api.Date { return c.earnings }

// StripView is the expiry strip under the tabs, one line of width cells,
// aligned with TabsView at the same width.
func (c *Model) StripView(width int) string {
	tabs, sel := c.Tabs()
	return ui.ExpiryStrip(tabs, sel, width, c.sh.Styles)
}

// StepExpiry moves the selection d expiries along the tabs, as the expiry
// keys do, for the vol page's table; it reports whether the expiry changed.
func (c *Model) StepExpiry(d int) bool { return c.stepExpiry(d) }
