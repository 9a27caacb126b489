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
// which costs no points. Each is computed once per change of the chain
// (or of the day), not on every frame, into buffers kept between changes.
// The strip needs one figure per expiry, so it converts an expiry at a
// time into one small buffer; only the vol page holds the whole chain in
// vol's shape, so a session that never opens it keeps one copy of the
// chain, not two (BenchmarkClientHeapSPX measures the difference).

// volCache holds each expiry's ATM figures for the strip and, once the
// vol page asked, the held chain in vol's shape.
type volCache struct {
	ver, surfVer uint64    // Model.ver each was built for; 0: never
	day, surfDay api.Date  // the day the data showed when each was built
	surfRoot     string    // the selected root the surface was built with
	atm, prev    []atmFigs // prev: the last call's, whose unchanged expiries are kept
	scratch      []vol.Row // one expiry's rows, while its figures are computed
	surf         vol.Surface
	rows         []vol.Row // one buffer behind every expiry's rows
}

// atmFigs are one expiry's ATM IV and straddle for the strip.
type atmFigs struct {
	date     api.Date
	root     string
	ver      uint64 // expiryRows.ver the figures were computed from
	iv, move float64
}

// stripFigs returns the ATM figures of every expiry still trading on day,
// in date order. A refresh of one expiry changes one expiry's rows, so
// only the expiries whose rows changed since the last call are computed
// again (each with the spot of its own refresh); a new day computes all.
// Many served sessions draw the same refresh, so this is per-session work
// the desk's CPU pays for each of them.
func (c *Model) stripFigs(day api.Date) []atmFigs {
	vc := &c.vc
	if vc.ver == c.ver && vc.day == day && c.ver != 0 {
		return vc.atm
	}
	kept := vc.atm
	if vc.day != day {
		kept = nil
	}
	vc.ver, vc.day = c.ver, day
	vc.prev, vc.atm = vc.atm, vc.prev[:0]
	spot := c.Spot()
	for i := range c.st.exps {
		e := &c.st.exps[i]
		if e.date < day {
			continue // settled: not a tab
		}
		for len(kept) > 0 && kept[0].date < e.date {
			kept = kept[1:]
		}
		if f, ok := keptFigs(kept, e); ok {
			vc.atm = append(vc.atm, f)
			continue
		}
		vc.scratch = volRows(vc.scratch[:0], e.rows)
		_, iv, move := vol.ATM(vc.scratch, spot)
		vc.atm = append(vc.atm, atmFigs{e.date, e.root, e.ver, iv, move})
	}
	return vc.atm
}

// keptFigs finds e's figures among kept (those of e's date first) when
// they were computed from the rows e holds now.
func keptFigs(kept []atmFigs, e *expiryRows) (atmFigs, bool) {
	for _, f := range kept {
		if f.date != e.date {
			break
		}
		if f.root == e.root {
			return f, f.ver == e.ver
		}
	}
	return atmFigs{}, false
}

// surface returns the held chain for day in vol's shape, converting it
// again only when it changed since the last call.
func (c *Model) surface(day api.Date) *vol.Surface {
	vc := &c.vc
	if vc.surfVer == c.ver && vc.surfDay == day && vc.surfRoot == c.Root() && c.ver != 0 {
		return &vc.surf
	}
	vc.surfVer, vc.surfDay, vc.surfRoot = c.ver, day, c.Root()
	s := &vc.surf
	*s = vol.Surface{Symbol: c.q.Symbol, Day: day, Spot: c.Spot(), Exps: s.Exps[:0]}
	if c.st.hasUnd {
		s.IV30 = vol.IV30Of(&c.st.und)
	} else {
		s.IV30 = vol.IV30{Now: math.NaN(), Change: math.NaN(), ChangePct: math.NaN()}
	}
	// One expiry per date: of a date several roots list, the root the
	// ladder shows when it is the selected one, else the first.
	pick := func(i int) bool {
		e := &c.st.exps[i]
		if e.date < day {
			return false // settled: not on the page
		}
		j, _ := c.st.findRoot(e.date, c.root)
		if e.date != c.expiry {
			j, _ = c.st.find(e.date)
		}
		return i == j
	}
	n := 0
	for i, e := range c.st.exps {
		if pick(i) {
			n += len(e.rows)
		}
	}
	if cap(vc.rows) < n {
		vc.rows = make([]vol.Row, 0, n+n/8)
	}
	vc.rows = vc.rows[:0]
	for i, e := range c.st.exps {
		if !pick(i) {
			continue
		}
		start := len(vc.rows)
		vc.rows = volRows(vc.rows, e.rows)
		rows := vc.rows[start:len(vc.rows):len(vc.rows)]
		s.Exps = append(s.Exps, vol.Expiry{Date: e.date, DTE: day.DaysUntil(e.date), Rows: rows})
	}
	return s
}

// volRows appends rows in vol's shape to dst.
func volRows(dst []vol.Row, rows []ui.StrikeRow) []vol.Row {
	for i := range rows {
		r := &rows[i]
		dst = append(dst, vol.Row{Strike: r.Strike, Call: quoteOf(&r.Call), Put: quoteOf(&r.Put)})
	}
	return dst
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
func (c *Model) StepExpiry(d int) bool {
	changed := c.stepExpiry(d)
	c.layout()
	return changed
}
