package common

import (
	"testing"

	"chainwatch/api"
	"chainwatch/feed"
)

// TestSettleOnceAfterTheFirstChain: a screen that asks for it hands back
// the startup's idle heap once, at its first chain (not at an empty
// answer, not again); a screen that does not ask never does.
func TestSettleOnceAfterTheFirstChain(t *testing.T) {
	chain := feed.ChainMsg{Chain: &api.SymbolWithOptions{}}
	for _, want := range []bool{true, false} {
		var s Settle
		if s.After(want, feed.ChainMsg{}) != nil {
			t.Errorf("settles (%v) at an answer without a chain", want)
		}
		if got := s.After(want, chain) != nil; got != want {
			t.Errorf("asked %v: settles at the first chain %v", want, got)
		}
		if s.After(want, chain) != nil {
			t.Errorf("asked %v: settles again at the second chain", want)
		}
	}
}
