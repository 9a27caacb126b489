package common

import (
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
)

// settleAfter is how long after the first chain is drawn the startup's
// idle heap is handed back: the first pages' fetches and draws are done.
const settleAfter = 5 * time.Second

// Settle hands the heap the startup left idle back to the system, once, a
// few seconds after the first chain arrives, on a screen that asks for it
// (Config.ReturnStartupMemory). Decoding the first whole chain and
// building the pages leaves the heap larger than the screen then holds,
// and the runtime keeps that idle part resident for reuse, so a screen
// left open looks several MB bigger than it is (BenchmarkScreenRSSSPX in
// cmd). One collection and scavenge, off the screen's goroutine; a desk's
// sessions (serve) share a process whose collector keeps its own pace,
// and do not ask. The zero Settle has not settled yet.
type Settle struct{ done bool }

// After is the command that settles, at the first chain msg carries when
// on; nil at any other message, when off, and once it has.
func (s *Settle) After(on bool, msg tea.Msg) tea.Cmd {
	if s.done || !on {
		return nil
	}
	if c, ok := msg.(feed.ChainMsg); !ok || c.Chain == nil {
		return nil
	}
	s.done = true
	return func() tea.Msg {
		time.Sleep(settleAfter)
		debug.FreeOSMemory()
		return nil
	}
}
