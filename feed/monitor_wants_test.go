package feed_test

import (
	"testing"

	"chainwatch/feed"
)

// TestMonitorWantsIsTheUnionWithShown: Wants lists every feed any
// subscriber keeps, once, Hidden only when no subscriber shows it, and no
// job: what a serve host sends the bus's source.
func TestMonitorWantsIsTheUnionWithShown(t *testing.T) {
	r := newRig(t, openMarket)
	a, b := r.m.Subscribe(), r.m.Subscribe()
	hidden := screen(spy(1), 0)
	for i := range hidden {
		hidden[i].Hidden = true
	}
	quotes := feed.Want{Feed: feed.FeedQuotes, Query: spy(1), Symbols: []string{"SPY", "QQQ"}}
	a.Set(focused, append(hidden, quotes)...)
	b.Set(focused, screen(spy(2), 0)...)
	got := map[feed.Key]feed.Want{}
	for _, w := range r.m.Wants() {
		if _, dup := got[w.Key()]; dup {
			t.Fatalf("%v listed twice", w.Key())
		}
		got[w.Key()] = w
	}
	for _, w := range append(screen(spy(2), 0), quotes) {
		g, ok := got[w.Key()]
		if !ok {
			t.Fatalf("Wants misses %v: %v", w.Key(), got)
		}
		if g.Hidden {
			t.Fatalf("%v shown by a subscriber, listed Hidden", w.Key())
		}
	}
	if len(got) != len(screen(spy(2), 0))+1 {
		t.Fatalf("Wants = %d feeds, want %d", len(got), len(screen(spy(2), 0))+1)
	}
	// b leaves: the ladder's feeds are a's, hidden.
	b.Close()
	for _, w := range r.m.Wants() {
		if w.Feed != feed.FeedQuotes && !w.Hidden {
			t.Fatalf("%v listed shown after the only subscriber showing it left", w.Key())
		}
	}
	a.Close()
	if ws := r.m.Wants(); len(ws) != 0 {
		t.Fatalf("no subscriber left, Wants = %v", ws)
	}
}
