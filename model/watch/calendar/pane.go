package calendar

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
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

// View is the events, upcoming first, then the recent ones.
func (c *Model) View() []string {
	cv := c.shown()
	return ui.Calendar(&cv, c.W, c.H, c.sh.Styles)
}

// shown is what View draws: the events in the screen's order, less those
// scrolled past.
func (c *Model) shown() ui.CalendarView {
	// The day the data shows (Wednesday's close on Thanksgiving), as the
	// expiry tabs count their DTE from: an event and an expiry on the
	// same date are the same number of days away.
	now := c.sh.Now()
	today := feed.ShownDay(c.q, now)
	asOf := today != c.q.Day(now)
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
