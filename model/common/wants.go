package common

import (
	"slices"

	"chainwatch/feed"
)

// Shown says which pages are on stack and which of them show: the top
// one, and each under it while no page above it covers it.
func Shown(stack []PageID, pages []Page) (on, shown [NumPages]bool) {
	covered := false
	for i := len(stack) - 1; i >= 0; i-- {
		id := stack[i]
		on[id], shown[id] = true, !covered
		covered = covered || pages[id].Covers()
	}
	return on, shown
}

// Wants are every page's feeds (pages by PageID), on the stack or not. A
// page that does not show has its feeds hidden (kept by the monitor, with
// when they were last fetched, not polled), whatever it says; a feed two
// pages want is one, shown if either shows it; the chain of a symbol not
// among known is probed first. An overlay that hides the top page's body
// (veil) hides every page's feed but the one still on screen.
func Wants(stack []PageID, pages []Page, sight Sight, known []string, veil Veil) []feed.Want {
	on, shown := Shown(stack, pages)
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
	for id, p := range pages {
		sight.OnStack = on[id]
		for _, w := range p.Wants(sight) {
			w.Hidden = w.Hidden || !shown[id] || veil.On && w.Feed != veil.Keep
			add(w)
		}
		if b, ok := p.(Background); ok {
			for _, w := range b.Background() {
				add(w)
			}
		}
	}
	return ws
}

// Veil is an overlay that covers the top page but for its header and the
// status bar (the scanner modal): On, and Keep, the feed those show (the
// top page's Status().Shown: the watch screen's chain, the watchlist's
// quotes). The pages' other feeds are hidden while it is open; the
// Background wants are not the pages' and stay.
type Veil struct {
	On   bool
	Keep feed.Feed
}
