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
// among known is probed first.
func Wants(stack []PageID, pages []Page, sight Sight, known []string) []feed.Want {
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
			w.Hidden = w.Hidden || !shown[id]
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
