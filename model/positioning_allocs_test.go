package model

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
)

// TestPositioningFrameAllocs: a frame of the positioning page drawn anew
// (after a scroll: every strike row and the panel drawn again) over an
// SPX-sized chain allocates no more than 1.2 times the watch screen's
// frame over the same chain, issue 43's budget (its time is
// BenchmarkPositioningFrame160x48/anew against BenchmarkFrame160x48).
func TestPositioningFrameAllocs(t *testing.T) {
	w, now := loadedApp(t, 40, 250)
	watch := testing.AllocsPerRun(20, func() { _ = w.drawAt(now) })

	a, now := loadedApp(t, 40, 250)
	a.Update(feed.ChainMsg{Query: a.q, Chain: modeltest.SynthChain(40, 250, 1), Resp: okResp(4), At: now})
	a.Update(runeKey('p'))
	a.Update(runeKey('f')) // all expiries
	if f, _ := a.pp().Figures(); a.topID() != common.PagePositioning || len(f.Expiries) != 40 {
		t.Fatalf("the page is not open on the whole chain: %d expiries", len(f.Expiries))
	}
	step := []tea.KeyPressMsg{keyDown, keyUp}
	i := 0
	before := a.drawAt(now)
	page := testing.AllocsPerRun(20, func() {
		a.pp().Update(step[i%2])
		i++
		_ = a.drawAt(now)
	})
	a.pp().Update(keyDown)
	if a.drawAt(now) == before {
		t.Fatal("a scroll did not change the frame: nothing was drawn anew")
	}
	if page > 1.2*watch {
		t.Errorf("the positioning page's frame drawn anew allocates %.0f times, the watch screen's %.0f: over 1.2 times", page, watch)
	}
}
