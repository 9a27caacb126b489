package keymap

import "charm.land/bubbles/v2/key"

// PositioningKeys are the positioning page's own keys. The page also
// answers to the watch screen's movement keys (a strike up or down, a
// page) and to the keys that mean the same everywhere
// (date, mode, refresh, help, quit; a symbol is picked on the watch
// screen).
type PositioningKeys struct {
	// Range cycles the expiries summed: 0DTE, this week, 30 days, all.
	Range key.Binding
	// Spot brings the strikes around spot back after scrolling (the
	// watch screen's Top keys: there is no top to a chain's strikes).
	Spot key.Binding
	// Greek cycles the dealer exposure shown by strike and in total:
	// gamma (GEX), vanna, charm.
	Greek key.Binding
}

// Positioning is the positioning page's key map.
func Positioning() PositioningKeys {
	return PositioningKeys{
		Range: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "expiries 0DTE/week/30d/all")),
		Spot:  key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "back to spot")),
		Greek: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "exposure gamma/vanna/charm")),
	}
}

// FullHelp is the positioning page's help screen: its own key, then the
// screen's keys that work on it.
func (p PositioningKeys) FullHelp(k KeyMap) [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, p.Spot},
		{p.Range, p.Greek, k.Refresh, k.Date, k.Mode},
		{k.Positioning, k.Close, k.Help, k.Quit, k.Interrupt},
	}
}

// ShortHelp is the page's keys a newcomer needs first.
func (p PositioningKeys) ShortHelp(k KeyMap) []key.Binding {
	return []key.Binding{p.Range, p.Greek, k.Up, k.Down, p.Spot, k.Close}
}
