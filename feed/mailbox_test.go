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

// A subscriber that joins a feed others show (a second SSH session on
// SPY) is handed the newest chain and the whole tape so far at once, the
// tape as one page from the start, and nothing is fetched for it.
func TestMonitorJoinerGetsTheFeedsAtOnce(t *testing.T) {
	r := newRig(t, openMarket)
	var seq int64
	r.src.tape = func(from int64) feed.TapeMsg {
		seq++
		return feed.TapeMsg{Trades: []api.OptionTrade{{SeqNo: seq}}}
	}
	first := r.m.Subscribe()
	first.Set(focused, screen(spy(1), 0)...)
	r.run()
	every := first.Snapshot(r.clock.Now()).Feeds[feed.FeedChain].Interval
	for range 5 {
		r.step(every)
	}
	first.Pending()
	r.src.taken()
	late := r.m.Subscribe()
	late.Set(focused, screen(spy(9), 0)...)
	r.run()
	if calls := r.src.taken(); len(calls) != 0 {
		t.Fatalf("joining fetched %v, want nothing: the feeds are shown already", feedsOf(calls))
	}
	msgs := late.Pending()
	chains, tapes := replies[feed.ChainMsg](msgs), replies[feed.TapeMsg](msgs)
	if len(chains) == 0 || chains[0].Query.Gen != 9 || len(replies[feed.CalendarMsg](msgs)) != 1 {
		t.Fatalf("the joiner got %d chains (%+v), want the newest stamped with its query, and the calendar", len(chains), chains)
	}
	if len(tapes) != 1 || tapes[0].From != 0 || len(tapes[0].Trades) != int(seq) || tapes[0].Query.Gen != 9 {
		t.Fatalf("the joiner's tape: %d pages, want one from 0 with all %d trades", len(tapes), seq)
	}
	if s := late.Snapshot(r.clock.Now()).Feeds[feed.FeedChain].Shared; s != 2 {
		t.Fatalf("the chain is shared by %d, want 2", s)
	}
}
