package chain

import (
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/ui"
)

// The expiry tabs: which expiries a trader can pick, how they are marked,
// and moving between them.

// stepExpiry moves d tabs along: an expiry of several roots is a tab per
// root. It reports whether the tab changed (the expiry, or its root). The
// strike and side stay: a trader comparing 697 puts across expiries keeps
// looking at 697 puts (the nearest strike where 697 is not listed).
func (c *Model) stepExpiry(d int) bool {
	i, ok := c.st.findRoot(c.expiry, c.root)
	if !ok {
		return false
	}
	j := min(max(i+d, c.firstListed()), len(c.st.exps)-1)
	if j == i {
		return false
	}
	c.keepTab(c.st.exps[j].date, c.st.exps[j].root)
	return true
}

// ClickTab selects the expiry tab under column x of the tab bar; it
// reports whether the tab changed (the expiry, or its root).
func (c *Model) ClickTab(x, width int) (expiryChanged bool) {
	tabs, sel := c.Tabs()
	i, ok := ui.ExpiryHit(tabs, sel, width, x)
	if !ok || i < 0 || i >= len(tabs) || (i == sel && tabs[i].Date == c.expiry) {
		return false
	}
	root := tabs[i].Root
	if root == "" {
		root = c.rootOfTab(tabs[i].Date)
	}
	c.keepTab(tabs[i].Date, root)
	c.layout()
	return true
}

// rootOfTab is the root of the single-root expiry d.
func (c *Model) rootOfTab(d api.Date) string {
	if i, ok := c.st.find(d); ok {
		return c.st.exps[i].root
	}
	return ""
}

// Tabs returns the expiry tabs and the selected one: a tab per expiry,
// and per root where several roots list one (SPX's Dec 18 is "SPX", the
// AM-settled monthly, and "SPXW", the PM-settled weekly). The slice is reused
// between calls: forty dates are cheap to classify on every frame, and the
// DTE then never goes stale across midnight.
//
// DTE counts from the day the data shows (feed.ShownDay: Friday's close on
// a Sunday), so it matches the prices beside it; an expiry before that day
// is not a tab at all, so no tab ever reads a negative DTE.
//
// The tabs are drawn twice a frame (the bar and the strip) and change only
// with the chain, the day, the selection or the next report, so they are
// made again only when one of those changed.
func (c *Model) Tabs() ([]ui.ExpiryTab, int) {
	now := c.sh.Now()
	day := feed.ShownDay(c.q, now)
	key := tabsKey{ver: c.ver, day: day, today: c.q.Day(now), expiry: c.expiry, earnings: c.earnings, root: c.root}
	if c.tabsOf == key && c.ver != 0 {
		return c.tabs, c.tabSel
	}
	c.tabsOf = key
	figs, spot := c.stripFigs(day), c.Spot()
	c.tabs = c.tabs[:0]
	sel := 0
	selected, _ := c.st.findRoot(c.expiry, c.root)
	exps := c.st.exps
	for i := c.firstListed(); i < len(exps); i++ {
		e := &exps[i]
		if e.date < day {
			continue
		}
		if i == selected && e.date == c.expiry {
			sel = len(c.tabs)
		}
		t := ui.ExpiryTab{
			Date:     e.date,
			DTE:      day.DaysUntil(e.date),
			Kind:     expiryKind(e.date),
			Earnings: c.earnings != 0 && e.date >= c.earnings,
		}
		if (i > 0 && exps[i-1].date == e.date) || (i+1 < len(exps) && exps[i+1].date == e.date) {
			t.Root = e.root
		}
		for len(figs) > 0 && (figs[0].date < e.date || figs[0].date == e.date && figs[0].root != e.root) {
			figs = figs[1:]
		}
		if len(figs) > 0 && figs[0].date == e.date && figs[0].root == e.root {
			t.ATMIV, t.Move, t.MovePct = figs[0].iv, figs[0].move, figs[0].move/spot
		}
		c.tabs = append(c.tabs, t)
	}
	c.tabSel = sel
	return c.tabs, sel
}

// tabsKey is what the tabs were last made from.
type tabsKey struct {
	ver                          uint64
	day, today, expiry, earnings api.Date
	root                         string
}

// firstListed is the index of the first expiry still trading on the
// query's day. A live screen on a weekend or before the open shows the
// last close, whose chain still holds the expiries that settled at it;
// they are history, not something a trader can trade, so the tabs and the
// expiry keys skip them. A historical day shows all it had.
func (c *Model) firstListed() int {
	if c.q.Date != 0 {
		return 0
	}
	day := c.q.Day(c.sh.Now())
	for i, e := range c.st.exps {
		if e.date >= day {
			return i
		}
	}
	return 0
}

// expiryKind classifies an expiry by its date alone. The monthly is the
// third Friday (holidays that move it to the Thursday are not known here);
// a quarterly is the last weekday of March, June, September or December;
// other Fridays are weeklies and any other day a daily.
func expiryKind(d api.Date) ui.ExpiryKind {
	wd := d.Weekday()
	if wd == time.Friday && d.Day() >= 15 && d.Day() <= 21 {
		return ui.ExpiryMonthly
	}
	if m := d.Month(); m%3 == 0 && wd != time.Saturday && wd != time.Sunday {
		last := lastWeekday(d.Year(), m)
		if d.Day() == last {
			return ui.ExpiryQuarterly
		}
	}
	if wd == time.Friday {
		return ui.ExpiryWeekly
	}
	return ui.ExpiryDaily
}

// lastWeekday is the day of the month of the last Monday-to-Friday of m.
func lastWeekday(y int, m time.Month) int {
	t := time.Date(y, m+1, 0, 12, 0, 0, 0, time.UTC)
	for t.Weekday() == time.Saturday || t.Weekday() == time.Sunday {
		t = t.AddDate(0, 0, -1)
	}
	return t.Day()
}
