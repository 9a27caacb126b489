package keymap

import (
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestNoKeyDoesTwoThings: a key bound twice in the watch screen would do
// whichever binding a model checks first, silently.
func TestNoKeyDoesTwoThings(t *testing.T) {
	seen := map[string]string{}
	for _, col := range Default().FullHelp() {
		for _, b := range col {
			for _, k := range b.Keys() {
				if prev, ok := seen[k]; ok {
					t.Errorf("key %q is bound to %q and %q", k, prev, b.Help().Desc)
				}
				seen[k] = b.Help().Desc
			}
		}
	}
	for _, must := range []string{"q", "ctrl+c", "?", "tab", "up", "k", "down", "j"} {
		if _, ok := seen[must]; !ok {
			t.Errorf("key %q is not bound", must)
		}
	}
	// The alerts page's key shares its help line with A's (A/a).
	for _, k := range Default().Alerts.Keys() {
		if prev, ok := seen[k]; ok {
			t.Errorf("the alerts page's key %q is bound to %q too", k, prev)
		}
	}
}

// TestEveryBindingHasHelp: the full help lists every binding with a key
// and a description.
func TestEveryBindingHasHelp(t *testing.T) {
	var all []key.Binding
	for _, col := range Default().FullHelp() {
		all = append(all, col...)
	}
	if len(all) < 25 {
		t.Fatalf("full help lists %d bindings; the watch screen has more", len(all))
	}
	for _, b := range all {
		if b.Help().Key == "" || b.Help().Desc == "" || len(b.Keys()) == 0 {
			t.Errorf("binding %v has no help", b.Keys())
		}
	}
}

// TestWatchlistKeys: on the watchlist page no key does two things, and
// each of its bindings has help.
func TestWatchlistKeys(t *testing.T) {
	seen := map[string]string{}
	for _, col := range Watchlist().FullHelp(Default()) {
		for _, b := range col {
			if b.Help().Key == "" || b.Help().Desc == "" || len(b.Keys()) == 0 {
				t.Errorf("binding %v has no help", b.Keys())
			}
			for _, k := range b.Keys() {
				if prev, ok := seen[k]; ok && prev != b.Help().Desc {
					t.Errorf("key %q is bound to %q and %q", k, prev, b.Help().Desc)
				}
				seen[k] = b.Help().Desc
			}
		}
	}
	for _, must := range []string{"enter", "a", "x", "esc", "W", "/", "m", "d", "r", "q", "<", ">", "o", "K", "J"} {
		if _, ok := seen[must]; !ok {
			t.Errorf("key %q is not in the watchlist's help", must)
		}
	}
}

// TestStrategyKeysDistinct: the strategy page's help lists its template
// width and delta keys, and no key on the page does two things.
func TestStrategyKeysDistinct(t *testing.T) {
	s := Strategy()
	seen := map[string]string{}
	for _, col := range s.FullHelp(Default()) {
		for _, b := range col {
			for _, k := range b.Keys() {
				if prev, ok := seen[k]; ok {
					t.Errorf("key %q is bound to %q and %q", k, prev, b.Help().Desc)
				}
				seen[k] = b.Help().Desc
			}
		}
	}
	for _, k := range []string{"t", "{", "}", "D"} {
		if _, ok := seen[k]; !ok {
			t.Errorf("key %q is not in the strategy page's help", k)
		}
	}
}
