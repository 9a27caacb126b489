package feed_test

import (
	"testing"

	"chainwatch/api"
	"chainwatch/feed"
)

// A subscriber that stops taking its messages (an SSH session whose
// client stopped reading) holds a bounded mailbox: past the lag limit each
// chain reply replaces the one waiting, and the tape's pages are joined
// so that what it takes when it is back applies where its tape ended. The
// subscriber that keeps up meanwhile gets every reply.
func TestMailboxLaggingSubscriberKeepsNewestPerFeed(t *testing.T) {
	r := newRig(t, openMarket)
	var seq int64
	r.src.tape = func(from int64) feed.TapeMsg {
		seq++
		return feed.TapeMsg{Trades: []api.OptionTrade{{SeqNo: seq}}} // one new trade a page
	}
	slow, fast := r.m.Subscribe(), r.m.Subscribe()
	slow.Set(focused, screen(spy(1), 0)...)
	fast.Set(focused, screen(spy(2), 0)...)
	r.run()
	every := slow.Snapshot(r.clock.Now()).Feeds[feed.FeedChain].Interval
	if every <= 0 {
		t.Fatal("the chain is not polled")
	}
	const refreshes = 200
	fastChains := 0
	for range refreshes {
		r.step(every)
		fastChains += len(replies[feed.ChainMsg](fast.Pending()))
	}
	if fastChains < refreshes {
		t.Fatalf("the subscriber that keeps up got %d chains over %d refreshes, want every one", fastChains, refreshes)
	}
	msgs := slow.Pending()
	if len(msgs) > 40 {
		t.Fatalf("the lagging subscriber holds %d messages after %d refreshes, want at most the lag limit and one a feed", len(msgs), refreshes)
	}
	if slow.Skipped() == 0 {
		t.Fatal("nothing was skipped")
	}
	// Its tape pages, applied in order as the tape applies them (each
	// from one past the last trade held), leave no trade out.
	last := int64(-1)
	for _, p := range replies[feed.TapeMsg](msgs) {
		if p.Restart || p.From != last+1 && !(last < 0 && p.From == 0) {
			t.Fatalf("a tape page from %d after the tape reached %d: it would not apply", p.From, last)
		}
		for _, tr := range p.Trades {
			if tr.SeqNo != max(last, 0)+1 {
				t.Fatalf("trade %d after %d: a trade was lost in the folding", tr.SeqNo, last)
			}
			last = tr.SeqNo
		}
	}
	if last != seq {
		t.Fatalf("the lagging subscriber's tape ends at %d, the service's at %d", last, seq)
	}
	chains := replies[feed.ChainMsg](msgs)
	if newest := chains[len(chains)-1].At; r.clock.Now().Sub(newest) > every {
		t.Fatalf("the last chain waiting is from %s, want the newest (%s)", newest, r.clock.Now())
	}
}
