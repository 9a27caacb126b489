package keymap

import "charm.land/bubbles/v2/key"

// StrategyKeys are the strategy page's own keys (the ticket): it also
// answers to the movement keys, to P (positions), help and quit.
type StrategyKeys struct {
	Template          key.Binding // the next template, centred on the money
	Narrower, Wider   key.Binding // the templates' width a strike less or more
	Delta             key.Binding // the short strikes' delta: 16, 25, 30 or by width
	DatePrev          key.Binding // the risk graph's chosen date a day earlier
	DateNext          key.Binding
	IVUp, IVDown      key.Binding // every leg's IV a vol point up or down
	QtyUp, QtyDown    key.Binding // the selected leg's quantity
	Flip              key.Binding // the selected leg bought <-> sold
	Remove, Clear     key.Binding
	Save, SaveNatural key.Binding // as a position, filled at mid or at the natural
	Back              key.Binding
}

// Strategy is the strategy page's key map.
func Strategy() StrategyKeys {
	return StrategyKeys{
		Template:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "next template")),
		Narrower:    key.NewBinding(key.WithKeys("{"), key.WithHelp("{", "template narrower")),
		Wider:       key.NewBinding(key.WithKeys("}"), key.WithHelp("}", "template wider")),
		Delta:       key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "short strikes: 16/25/30 delta or width")),
		DatePrev:    key.NewBinding(key.WithKeys("["), key.WithHelp("[", "date earlier")),
		DateNext:    key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "date later")),
		IVUp:        key.NewBinding(key.WithKeys(">", "."), key.WithHelp(">", "IV +1 pt")),
		IVDown:      key.NewBinding(key.WithKeys("<", ","), key.WithHelp("<", "IV -1 pt")),
		QtyUp:       key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "quantity up")),
		QtyDown:     key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "quantity down")),
		Flip:        key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "buy/sell")),
		Remove:      key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "remove leg")),
		Clear:       key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "clear ticket")),
		Save:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save position (mid)")),
		SaveNatural: key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "save position (natural)")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// FullHelp is the strategy page's help screen.
func (s StrategyKeys) FullHelp(k KeyMap) [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, s.QtyUp, s.QtyDown, s.Flip, s.Remove, s.Clear},
		{s.Template, s.Narrower, s.Wider, s.Delta, s.DatePrev, s.DateNext, s.IVUp, s.IVDown},
		{s.Save, s.SaveNatural, k.Positions, s.Back, k.Help, k.Quit, k.Interrupt},
	}
}

// ShortHelp is the keys a newcomer needs first.
func (s StrategyKeys) ShortHelp() []key.Binding {
	return []key.Binding{s.Template, s.DatePrev, s.DateNext, s.IVUp, s.Save, s.Back}
}

// PositionsKeys are the positions page's own keys.
type PositionsKeys struct {
	Close, Roll, Back key.Binding
	// Confirm answers the question a close or a roll asks first; Undo
	// opens again the position closed last.
	Confirm, Undo key.Binding
}

// Positions is the positions page's key map.
func Positions() PositionsKeys {
	return PositionsKeys{
		Close:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "close at mid")),
		Roll:    key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "roll: close, legs to the ticket")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Confirm: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes: close or roll as asked")),
		Undo:    key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo the last close")),
	}
}

// FullHelp is the positions page's help screen.
func (p PositionsKeys) FullHelp(k KeyMap) [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, p.Close, p.Roll, p.Confirm, p.Undo}, {k.Ticket, p.Back, k.Help, k.Quit, k.Interrupt}}
}

// ShortHelp is the keys a newcomer needs first.
func (p PositionsKeys) ShortHelp() []key.Binding {
	return []key.Binding{p.Close, p.Roll, p.Back}
}
