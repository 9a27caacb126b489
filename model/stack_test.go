package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/feed"
	"chainwatch/model/common"
)

// TestStackNeverRepeats: opening a page already on the stack returns to
// it, popping the pages above it, so T P T P T P (strategy and positions,
// each opening the other) leaves [watch strategy positions], and two esc
// show the ladder, polled again.
func TestStackNeverRepeats(t *testing.T) {
	r, _ := offlineRig(t)
	loadRig(t, r, testNow)
	a := r.a
	for i, k := range "TPTPTP" {
		a.Update(runeKey(k))
		want := common.PageStrategy
		if i%2 == 1 {
			want = common.PagePositions
		}
		if a.topID() != want || len(a.stack) > 3 {
			t.Fatalf("after %q: stack %v", "TPTPTP"[:i+1], a.stack)
		}
	}
	if want := []common.PageID{common.PageWatch, common.PageStrategy, common.PagePositions}; !slices.Equal(a.stack, want) {
		t.Fatalf("T P T P T P: stack %v, want %v", a.stack, want)
	}
	if a.polled(feed.FeedChain) || a.polled(feed.FeedTape) {
		t.Fatal("the ladder is polled under the positions page")
	}
	a.Update(keyEsc())
	if a.topID() != common.PageStrategy {
		t.Fatalf("one esc: stack %v", a.stack)
	}
	a.Update(keyEsc())
	if !slices.Equal(a.stack, []common.PageID{common.PageWatch}) {
		t.Fatalf("two esc: stack %v", a.stack)
	}
	if frame := ansi.Strip(a.drawAt(testNow)); !strings.Contains(frame, "Strike") || !strings.Contains(frame, "Time & Sales") {
		t.Fatalf("two esc do not show the ladder:\n%s", frame)
	}
	if !a.polled(feed.FeedChain) || !a.polled(feed.FeedTape) {
		t.Fatal("back on the ladder, its chain and tape are not polled")
	}
}

// TestStackReturnsToAPageBelow: a page opened from above it returns to it
// wherever it is on the stack (the watchlist under the vol page), and the
// watch screen, at the bottom, is never pushed again.
func TestStackReturnsToAPageBelow(t *testing.T) {
	a, _ := offlineApp(t)
	a.do(common.Open{Page: common.PageWatchlist})
	a.do(common.Open{Page: common.PageVol})
	a.do(common.Open{Page: common.PageAlerts})
	a.do(common.Open{Page: common.PageWatchlist})
	if want := []common.PageID{common.PageWatch, common.PageWatchlist}; !slices.Equal(a.stack, want) {
		t.Fatalf("back to the watchlist: stack %v, want %v", a.stack, want)
	}
	a.do(common.Open{Page: common.PageWatch})
	if !slices.Equal(a.stack, []common.PageID{common.PageWatch}) {
		t.Fatalf("back to the watch screen: stack %v", a.stack)
	}
}

// TestCoveredPagesAreHidden: whatever a page says of its wants, the root
// hides those of a page that does not show (off the stack, or under a
// page that covers it) and shows the top page's: with every page on top
// of every other in turn, the others' feeds are hidden, and a feed the
// top page shares with one beneath (the vol page's chain) is handed to
// the monitor once, shown.
func TestCoveredPagesAreHidden(t *testing.T) {
	a, _ := offlineApp(t)
	for top := range common.NumPages {
		for mid := range common.NumPages {
			a.stack = []common.PageID{common.PageWatch}
			for _, id := range []common.PageID{mid, top} {
				if !slices.Contains(a.stack, id) {
					a.stack = append(a.stack, id)
				}
			}
			if a.topID() != top {
				continue
			}
			own := map[feed.Key]bool{}
			for _, w := range a.built[top].Wants(common.Sight{Mode: a.q.Mode, OnStack: true}) {
				own[w.Key()] = !w.Hidden
			}
			_, ws := a.wants()
			seen := map[feed.Key]int{}
			for _, w := range ws {
				seen[w.Key()]++
				if !w.Hidden && !own[w.Key()] {
					t.Errorf("stack %v: %s shown, not the top page's", a.stack, w.Feed)
				}
			}
			for k, shown := range own {
				if shown && !slices.ContainsFunc(ws, func(w feed.Want) bool { return w.Key() == k && !w.Hidden }) {
					t.Errorf("stack %v: the top page's %s is not shown", a.stack, k.Feed)
				}
			}
			for k, n := range seen {
				if n > 1 {
					t.Errorf("stack %v: %s handed to the monitor %d times", a.stack, k.Feed, n)
				}
			}
		}
	}
}

// TestTapeGreeksOnlyWithTheTape: the tape's greeks columns (i) are
// polled while the tape shows, not while it is toggled off (t) nor under
// the vol page, which covers it.
func TestTapeGreeksOnlyWithTheTape(t *testing.T) {
	r, _ := offlineRig(t)
	loadRig(t, r, testNow)
	a := r.a
	a.Update(runeKey('i'))
	if !a.ws().Tape().GreeksWanted() || !a.polled(feed.FeedTapeGreeks) || !a.polled(feed.FeedTape) {
		t.Fatalf("i: greeks wanted %v, polled %v", a.ws().Tape().GreeksWanted(), a.polled(feed.FeedTapeGreeks))
	}
	a.Update(runeKey('t'))
	if a.polled(feed.FeedTape) || a.polled(feed.FeedTapeGreeks) {
		t.Fatal("the tape toggled off: its greeks are polled")
	}
	a.Update(runeKey('t'))
	a.Update(runeKey('v'))
	if !volShown(a) || a.polled(feed.FeedTape) || a.polled(feed.FeedTapeGreeks) || !a.polled(feed.FeedChain) {
		t.Fatal("under the vol page: the tape's greeks are polled, or the chain is not")
	}
	a.Update(keyEsc())
	if !a.polled(feed.FeedTapeGreeks) {
		t.Fatal("back on the ladder: the greeks are not polled again")
	}
}

// TestScannerModalHidesTheTape: the scanner modal covers the ladder, the
// tape and the calendar, leaving the header and the status bar: the chain
// they show is still polled, the tape and its greeks are not; esc brings
// them back. Over the watchlist its quotes stay (its title's age).
func TestScannerModalHidesTheTape(t *testing.T) {
	r, _ := offlineRig(t)
	loadRig(t, r, testNow)
	a := r.a
	a.Update(runeKey('i')) // the tape's greeks wanted too
	if !a.polled(feed.FeedTape) || !a.polled(feed.FeedTapeGreeks) {
		t.Fatal("the ladder: the tape or its greeks are not polled")
	}
	a.Update(runeKey('S'))
	if a.overlay != a.scan {
		t.Fatal("S did not open the scanner")
	}
	if a.polled(feed.FeedTape) || a.polled(feed.FeedTapeGreeks) || a.polled(feed.FeedCalendar) {
		t.Fatal("under the scanner modal: the tape, its greeks or the calendar are polled")
	}
	if !a.polled(feed.FeedChain) {
		t.Fatal("under the scanner modal: the header's chain is not polled")
	}
	a.Update(keyEsc())
	if a.overlay != nil || !a.polled(feed.FeedTape) || !a.polled(feed.FeedTapeGreeks) {
		t.Fatalf("esc: overlay %v, tape polled %v", a.overlay, a.polled(feed.FeedTape))
	}
	a.Update(runeKey('W'))
	a.Update(runeKey('S'))
	if a.overlay != a.scan || !a.polled(feed.FeedQuotes) || a.polled(feed.FeedChain) {
		t.Fatalf("the scanner over the watchlist: quotes polled %v, chain polled %v", a.polled(feed.FeedQuotes), a.polled(feed.FeedChain))
	}
}
