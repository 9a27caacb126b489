package model

import (
	"slices"

	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/prompt"
)

// shown says which pages are on the stack and which of them show: the
// top one, and each under it while no page above it covers it.
func (a *App) shown() (on, shown [common.NumPages]bool) {
	covered := false
	for i := len(a.stack) - 1; i >= 0; i-- {
		id := a.stack[i]
		on[id], shown[id] = true, !covered
		covered = covered || a.built[id].Covers()
	}
	return on, shown
}

// wants are every page's feeds, on the stack or not, and whether the
// trader is looking. A page that does not show has its feeds hidden
// (kept by the monitor, with when they were last fetched, not polled),
// whatever it says; a feed two pages want is one, shown if either shows
// it; the chain of a symbol the session does not know is probed first.
func (a *App) wants() (feed.Attention, []feed.Want) {
	now := a.sh.Now()
	on, shown := a.shown()
	known := prompt.Known(a.known())
	ws := make([]feed.Want, 0, 12)
	add := func(w feed.Want) {
		if w.Feed == feed.FeedChain {
			w.Probe = !slices.Contains(known, w.Query.Symbol)
		}
		k := w.Key()
		for i := range ws {
			if ws[i].Key() == k {
				if w.Hidden && !ws[i].Hidden {
					return // shown by another page: its parameters stay
				}
				ws[i] = w
				return
			}
		}
		ws = append(ws, w)
	}
	sight := common.Sight{Mode: a.q.Mode, Historical: a.q.Historical(now)}
	for id, p := range a.built {
		sight.OnStack = on[id]
		for _, w := range p.Wants(sight) {
			w.Hidden = w.Hidden || !shown[id]
			add(w)
		}
		if b, ok := p.(common.Background); ok {
			for _, w := range b.Background() {
				add(w)
			}
		}
	}
	att := feed.Attention{Focused: a.scr.focused, Idle: now.Sub(a.scr.lastInput) > config.IdleAfter}
	return att, ws
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
