package model

import (
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/prompt"
)

// wants are every page's feeds, hidden where the stack or the scanner
// modal does not show them (common.Wants), and whether one is looking.
func (a *App) wants() (feed.Attention, []feed.Want) {
	now := a.sh.Now()
	sight := common.Sight{Mode: a.q.Mode, Historical: a.q.Historical(now)}
	var veil common.Veil // the modal leaves the header and the status bar
	if a.overlay == a.scan {
		veil = common.Veil{On: true, Keep: a.top().Status(now).Shown}
	}
	ws := common.Wants(a.stack, a.built[:], sight, prompt.Known(a.known()), veil)
	return feed.Attention{Focused: a.scr.focused, Idle: now.Sub(a.scr.lastInput) > config.IdleAfter}, ws
}

// syncFeeds tells the monitor, after every message, what the pages want
// now, and takes its snapshot for drawing.
func (a *App) syncFeeds() {
	att, ws := a.wants()
	a.link.Set(a.sh.Now(), att, ws...)
}

// changeQuery moves to a new symbol, mode or date, with a new generation:
// every page is told and forgets the old one, and the monitor the old
// query's feeds (syncFeeds); replies still in flight for it are booked by
// the monitor and never delivered.
func (a *App) changeQuery(q feed.Query) {
	q.Gen = a.q.Gen + 1
	a.q = q
	for _, p := range a.built {
		p.Update(common.QueryMsg{Query: q})
	}
	a.scr.notice = common.Notice{} // about the screen being left
}
