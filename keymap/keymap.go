// Package keymap holds every key chainwatch answers to, with its help
// text. No other package spells a key: models match a tea.KeyPressMsg
// against these bindings with key.Matches, so remapping is one edit here
// and the help screen can never disagree with what the keys do.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is the watch screen's keys.
type KeyMap struct {
	// Moving in the focused pane.
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	// Left and Right pick the call or the put side of the strike ladder.
	Left, Right key.Binding
	// PrevExpiry and NextExpiry move along the expiry tabs.
	PrevExpiry, NextExpiry key.Binding
	NextPane, PrevPane     key.Binding

	Symbol   key.Binding // open the symbol prompt
	Date     key.Binding // open the date prompt: a historical day, or today
	Mode     key.Binding // live <-> delayed
	Columns  key.Binding // next column set of the ladder
	Window   key.Binding // strikes around the money: 10, 20, 40, all
	Tape     key.Binding // show or hide the tape
	Calendar key.Binding // show or hide the calendar
	Refresh  key.Binding // fetch now, whatever the timer says
	Scanner  key.Binding // open the scanner modal over the watch screen
	Vol      key.Binding // open (and close) the vol page: smile, term structure, expected moves
	Smile    key.Binding // on the vol page: the smile as calls and puts, or out of the money merged
	// Open opens the contract page of the ladder's selected contract, or
	// of the tape's selected trade; Close (esc) comes back.
	Open key.Binding
	// Watchlist opens the watchlist page, and from it goes back.
	Watchlist key.Binding
	// Positioning opens the positioning page (open interest, max pain,
	// walls, dealer gamma), and from it goes back.
	Positioning key.Binding
	// Alert proposes an alert rule for what is selected (a ladder row, a
	// tape print, a watchlist row); Alerts opens the alerts page. The
	// help lists them as one line (A/a): the help fills 80x24 already.
	Alert, Alerts key.Binding
	// The ladder's contract to the strategy ticket, bought or sold; the
	// strategy page (the ticket) and the positions page.
	TicketBuy, TicketSell, Ticket, Positions key.Binding

	// The tape's filters.
	TapeSide     key.Binding // calls and puts, calls only, puts only
	TapeContract key.Binding // only the contract selected in the ladder
	MinSizeUp    key.Binding
	MinSizeDown  key.Binding
	// TapeGreeks shows the tape's IV, delta and premium columns.
	TapeGreeks key.Binding

	Help, Close, Quit key.Binding
	// Interrupt quits from anywhere, a prompt included, where q is a letter.
	Interrupt key.Binding
}

// Default is the key map chainwatch ships: arrows and vim keys both.
func Default() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom")),
		Left:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "calls")),
		Right:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "puts")),

		PrevExpiry: key.NewBinding(key.WithKeys("[", "H"), key.WithHelp("[", "prev expiry")),
		NextExpiry: key.NewBinding(key.WithKeys("]", "L"), key.WithHelp("]", "next expiry")),
		NextPane:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "prev pane")),

		Symbol:      key.NewBinding(key.WithKeys("/", "s"), key.WithHelp("/", "symbol")),
		Date:        key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "date")),
		Mode:        key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "live/delayed")),
		Columns:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "columns")),
		Window:      key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "strikes 10/20/40/all")),
		Tape:        key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tape")),
		Calendar:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "calendar")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh now")),
		Scanner:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "scanner")),
		Vol:         key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "vol page")),
		Smile:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "vol: smile calls+puts/OTM")),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "contract page")),
		Watchlist:   key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "watchlist")),
		Positioning: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "positioning: OI, GEX")),
		Alert:       key.NewBinding(key.WithKeys("A"), key.WithHelp("A/a", "alert on this/alerts")),
		Alerts:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "alerts page")),
		TicketBuy:   key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "ticket: buy")),
		TicketSell:  key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "ticket: sell")),
		Ticket:      key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "strategy page")),
		Positions:   key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "positions")),

		TapeSide:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "tape: calls/puts")),
		TapeContract: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "tape: this contract")),
		MinSizeUp:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "tape: min size up")),
		MinSizeDown:  key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "tape: min size down")),
		TapeGreeks:   key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "tape: IV, delta, premium")),

		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Close:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit from anywhere")),
	}
}

// ShortHelp is the one-line help of the status bar.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Symbol, k.PrevExpiry, k.NextExpiry, k.NextPane, k.Columns, k.Window, k.Scanner, k.Help, k.Quit}
}

// FullHelp is the help screen, one column per group.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Left, k.Right, k.TicketBuy, k.TicketSell},
		{k.PrevExpiry, k.NextExpiry, k.NextPane, k.PrevPane, k.Columns, k.Window, k.Tape, k.Calendar, k.Ticket, k.Positions},
		{k.Symbol, k.Scanner, k.Vol, k.Smile, k.Positioning, k.Open, k.Watchlist, k.Date, k.Mode, k.Refresh},
		// The general keys share the tape's column: a fourth band would not
		// fit 80x24.
		{k.TapeSide, k.TapeContract, k.MinSizeUp, k.MinSizeDown, k.TapeGreeks, k.Alert, k.Help, k.Close, k.Quit, k.Interrupt},
	}
}

// PromptKeys are the keys of a one-line prompt (symbol, date).
type PromptKeys struct {
	Accept, Cancel, Complete, Prev, Next key.Binding
	Backspace, Clear                     key.Binding
}

// Prompt is the prompt's key map.
func Prompt() PromptKeys {
	return PromptKeys{
		Accept:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Complete:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		Prev:      key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "previous")),
		Next:      key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "next")),
		Backspace: key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("⌫", "delete")),
		Clear:     key.NewBinding(key.WithKeys("ctrl+u", "ctrl+w"), key.WithHelp("ctrl+u", "clear")),
	}
}

// ShortHelp and FullHelp make PromptKeys a help.KeyMap.
func (p PromptKeys) ShortHelp() []key.Binding {
	return []key.Binding{p.Accept, p.Complete, p.Cancel}
}

// FullHelp is the prompt's help in one column.
func (p PromptKeys) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }
