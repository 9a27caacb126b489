package model

import (
	"slices"

	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/prompt"
)

// conditions is what the pages show, each of the stack marking its own,
// the ones above over the ones below (the vol page covers the tape).
func (a *App) conditions() feed.Conditions {
	now := a.sh.Now()
	c := feed.Conditions{Mode: a.q.Mode, Historical: a.q.Historical(now), Focused: a.scr.focused,
		Idle: now.Sub(a.scr.lastInput) > config.IdleAfter}
	for _, id := range a.stack {
		a.built[id].Feeds(&c)
	}
	return c
}

// wants are every page's feeds, on the stack or not (a page not shown
// keeps its feeds hidden, with when they were last fetched, not polled);
// the chain of a symbol the session does not know is probed first.
func (a *App) wants() (feed.Attention, []feed.Want) {
	c := a.conditions()
	known := prompt.Known(a.known())
	ws := make([]feed.Want, 0, 10)
	for _, p := range a.built {
		for _, w := range p.Wants(c) {
			if w.Feed == feed.FeedChain {
				w.Probe = !slices.Contains(known, w.Query.Symbol)
			}
			ws = append(ws, w)
		}
	}
	return feed.Attention{Focused: c.Focused, Idle: c.Idle}, ws
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
	a.scr.notice = "" // about the screen being left
}
