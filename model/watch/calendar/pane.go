package calendar

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/theme"
	"chainwatch/ui"
)

var _ common.Pane[*Model] = (*Model)(nil)

// Update takes a key (scrolling, when focused) or the events reply.
func (c *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !c.Focused {
			break
		}
		keys := &c.sh.Keys
		switch {
		case key.Matches(msg, keys.Up):
			c.Scroll(-1)
		case key.Matches(msg, keys.Down):
			c.Scroll(1)
		case key.Matches(msg, keys.PageUp):
			c.Scroll(-10)
		case key.Matches(msg, keys.PageDown):
			c.Scroll(10)
		}
	case feed.CalendarMsg:
		c.Apply(msg)
	}
	return c, nil
}

// View is the events, upcoming first, then the recent ones, as drawn
// after the last change: it writes nothing.
func (c *Model) View() []string { return c.lines }

// SetSize sets the size View draws. The root sets every page's size after
// every message, so the lines follow the clock's day too.
func (c *Model) SetSize(width, height int) {
	c.Frame.SetSize(width, height)
	c.draw()
}

// SetFocused says whether the scrolling keys are the calendar's.
func (c *Model) SetFocused(f bool) {
	c.Frame.SetFocused(f)
	c.draw()
}

// draw makes the lines View returns. The events change a few times a
// quarter and the frame many times a second (on every refresh of every
// served session), so they are drawn again only when what they show
// changed.
func (c *Model) draw() {
	// The day the data shows (Wednesday's close on Thanksgiving), as the
	// expiry tabs count their DTE from: an event and an expiry on the
	// same date are the same number of days away.
	now := c.sh.Now()
	today := feed.ShownDay(c.q, now)
	key := viewKey{ver: c.ver, today: today, asOf: today != c.q.Day(now), focused: c.Focused, w: c.W, h: c.H, st: c.sh.Styles}
	if key != c.drawn || c.lines == nil {
		cv := c.shown(key.today, key.asOf)
		c.drawn, c.lines = key, ui.Calendar(&cv, c.W, c.H, c.sh.Styles)
	}
}

// viewKey is what the drawn lines depend on.
type viewKey struct {
	ver     uint64
	today   api.Date
	asOf    bool
	focused bool
	w, h    int
	st      *theme.Styles
}

// shown is what View draws: the events in the screen's order, less those
// scrolled past.
func (c *Model) shown(today api.Date, asOf bool) ui.CalendarView {
	ve := upcomingFirst(make([]ui.Earning, 0, len(c.earnings)), c.earnings, today, func(e ui.Earning) api.Date { return e.Date })
	vd := upcomingFirst(make([]ui.Dividend, 0, len(c.dividends)), c.dividends, today, func(d ui.Dividend) api.Date { return d.ExDate })
	for range min(c.scroll, len(ve)+len(vd)) {
		// Drop whichever comes first in the screen's order.
		if len(vd) == 0 || (len(ve) > 0 && !shownAfter(ve[0].Date, vd[0].ExDate, today)) {
			ve = ve[1:]
		} else {
			vd = vd[1:]
		}
	}
	return ui.CalendarView{Earnings: ve, Dividends: vd, Today: today, AsOf: asOf, Focused: c.Focused, Message: c.message()}
}

// ShortHelp is the calendar's keys.
func (c *Model) ShortHelp() []key.Binding {
	k := &c.sh.Keys
	return []key.Binding{k.Up, k.Down, k.Calendar}
}

// FullHelp is every key of the calendar.
func (c *Model) FullHelp() [][]key.Binding {
	k := &c.sh.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Calendar}}
}
