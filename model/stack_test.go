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
// page that covers it) and shows the top page's: every page on top in
// turn, the others' feeds are hidden and a feed the top page shares with
// one beneath (the vol page's chain) is shown once.
func TestCoveredPagesAreHidden(t *testing.T) {
	a, _ := offlineApp(t)
	for id := range common.NumPages {
		a.stack = []common.PageID{common.PageWatch}
		if id != common.PageWatch {
			a.stack = append(a.stack, id)
		}
		seen := map[feed.Key]int{}
		_, ws := a.wants()
		own := map[feed.Key]bool{}
		for _, w := range a.built[id].Wants(common.Sight{Mode: a.q.Mode, OnStack: true}) {
			own[w.Key()] = !w.Hidden
		}
		for _, w := range ws {
			seen[w.Key()]++
			if !w.Hidden && !own[w.Key()] {
				t.Errorf("page %d on top: %s shown, not the top page's", id, w.Feed)
			}
		}
		for k, shown := range own {
			if shown && !slices.ContainsFunc(ws, func(w feed.Want) bool { return w.Key() == k && !w.Hidden }) {
				t.Errorf("page %d on top: its %s is not shown", id, k.Feed)
			}
		}
		for k, n := range seen {
			if n > 1 {
				t.Errorf("page %d on top: %s handed to the monitor %d times", id, k.Feed, n)
			}
		}
	}
}
