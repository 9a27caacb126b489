package model

import (
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
)

// settleAfter is how long after the first chain is drawn the startup's
// idle heap is handed back: the first pages' fetches and draws are done.
const settleAfter = 5 * time.Second

// settle hands the heap the startup left idle back to the system, once, a
// few seconds after the first chain arrives (Config.ReturnStartupMemory).
// Decoding the first whole chain and building the pages leaves the heap
// larger than the screen then holds, and the runtime keeps that idle part
// resident for reuse, so a screen left open looks several MB bigger than
// it is (BenchmarkScreenRSSSPX in cmd). One collection and scavenge, off
// the screen's goroutine; a desk's sessions (serve) share a process whose
// collector keeps its own pace, and do not set it.
func (a *App) settle(msg tea.Msg) tea.Cmd {
	if a.settled || !a.cfg.ReturnStartupMemory {
		return nil
	}
	if c, ok := msg.(feed.ChainMsg); !ok || c.Chain == nil {
		return nil
	}
	a.settled = true
	return func() tea.Msg {
		time.Sleep(settleAfter)
		debug.FreeOSMemory()
		return nil
	}
}
