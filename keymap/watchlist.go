package keymap

import "charm.land/bubbles/v2/key"

// WatchlistKeys are the watchlist page's own keys. The page also answers
// to the watch screen's movement keys and to the keys that mean the same
// everywhere (symbol, date, mode, refresh, scanner, help, quit); the
// ladder's and the tape's keys are not the page's, so x and + are free
// here for removing and adding.
type WatchlistKeys struct {
	Open             key.Binding // the selected symbol's chain
	Add, Remove      key.Binding
	Undo             key.Binding // put back the symbol removed last
	MoveUp, MoveDown key.Binding // reorder the user's own order
	SortPrev         key.Binding
	SortNext         key.Binding
	SortFlip         key.Binding
	Back             key.Binding // to the watch screen
}

// Watchlist is the watchlist page's key map. Sorting is the scanner
// results' keys: < and > pick the column, o flips the order.
func Watchlist() WatchlistKeys {
	return WatchlistKeys{
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open chain")),
		Add:      key.NewBinding(key.WithKeys("a", "+", "insert"), key.WithHelp("a", "add symbol")),
		Remove:   key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "remove")),
		Undo:     key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo remove")),
		MoveUp:   key.NewBinding(key.WithKeys("K", "shift+up"), key.WithHelp("K", "move up")),
		MoveDown: key.NewBinding(key.WithKeys("J", "shift+down"), key.WithHelp("J", "move down")),
		SortPrev: key.NewBinding(key.WithKeys("<", ","), key.WithHelp("<", "sort prev column")),
		SortNext: key.NewBinding(key.WithKeys(">", "."), key.WithHelp(">", "sort next column")),
		SortFlip: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "flip order")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to chain")),
	}
}

// FullHelp is the watchlist page's help screen: its own keys, then the
// screen's keys that work on it.
func (w WatchlistKeys) FullHelp(k KeyMap) [][]key.Binding {
	k.Alert.SetHelp("A", "alert on this") // a is add here, not the alerts page
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{w.Open, w.Add, w.Remove, w.Undo, w.MoveUp, w.MoveDown},
		{w.SortPrev, w.SortNext, w.SortFlip, k.Refresh, k.Mode, k.Date},
		{k.Symbol, k.Scanner, k.Watchlist, k.Alert, w.Back, k.Help, k.Quit, k.Interrupt},
	}
}

// ShortHelp is the watchlist's keys a newcomer needs first.
func (w WatchlistKeys) ShortHelp() []key.Binding {
	return []key.Binding{w.Open, w.Add, w.Remove, w.SortNext, w.Back}
}
