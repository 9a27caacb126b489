package common

import (
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
)

// TestBarOfAFreeSessionNamesNoCost: the vol page counts down its term
// structure's refresh with what it costs; on a bus host, whose answers
// cost nothing, it counts down without a cost.
func TestBarOfAFreeSessionNamesNoCost(t *testing.T) {
	now := time.Date(2026, 11, 24, 11, 0, 0, 0, api.Eastern)
	st := Status{Shown: feed.FeedChain, Next: feed.FeedTerm, NextCost: 4}
	var snap feed.Snapshot
	snap.Feeds[feed.FeedChain].Due = now.Add(2 * time.Second)
	snap.Feeds[feed.FeedTerm].Due = now.Add(5 * time.Minute)
	q := feed.Query{Symbol: "SPY", Mode: api.Live}
	if d := st.Bar(&snap, q, now); d.NextFeed != feed.FeedTerm.String() || d.NextCost != 4 {
		t.Fatalf("paid: next %q cost %d, want the term structure at 4 points", d.NextFeed, d.NextCost)
	}
	snap.Stats.Free = true
	if d := st.Bar(&snap, q, now); d.NextFeed != feed.FeedTerm.String() || d.NextCost != 0 || d.Next != 5*time.Minute {
		t.Fatalf("free: next %q in %v cost %d, want the term structure in 5m0s at no cost", d.NextFeed, d.Next, d.NextCost)
	}
}
