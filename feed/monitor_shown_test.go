package feed_test

import (
	"testing"
	"time"

	"chainwatch/feed"
)

// TestMonitorPollsWhatAnySubscriberShows: a subscriber on its watchlist
// (its quotes shown, its ladder's feeds hidden) takes nothing from
// another's ladder on a shared monitor (a served desk): every feed some
// subscriber shows is polled, whatever page it is on. Which page covers
// which is the subscribers' to say, not the monitor's.
func TestMonitorPollsWhatAnySubscriberShows(t *testing.T) {
	r := newRig(t, openMarket)
	onList, onLadder := r.m.Subscribe(), r.m.Subscribe()
	covered := screen(spy(1), 0)
	for i := range covered {
		covered[i].Hidden = true
	}
	onList.Set(focused, append(covered, feed.Want{Feed: feed.FeedQuotes, Query: spy(1), Symbols: []string{"SPY", "QQQ"}})...)
	onLadder.Set(focused, screen(spy(2), 0)...)
	r.step(10 * time.Minute)
	n := map[feed.Feed]int{}
	for _, f := range feedsOf(r.src.taken()) {
		n[f]++
	}
	if n[feed.FeedChain] < 2 || n[feed.FeedTape] < 2 || n[feed.FeedQuotes] < 2 {
		t.Fatalf("in 10 minutes: %v; want the ladder's chain and tape and the list's quotes each polled", n)
	}
	// The ladder covered too: nothing of it is polled.
	onLadder.Set(focused, covered...)
	r.step(time.Minute)
	r.src.taken()
	r.step(10 * time.Minute)
	for _, f := range feedsOf(r.src.taken()) {
		if f != feed.FeedQuotes {
			t.Fatalf("%s polled with no subscriber showing it", f)
		}
	}
}
