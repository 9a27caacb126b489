package tape

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/ui"
)

var _ common.Pane[*Model] = (*Model)(nil)

// Update takes a key, a page of trades or the exchange table. The filter
// keys are the tape's whatever has the focus; scrolling only when it is
// focused.
func (t *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		t.handleKey(msg, t.Focused)
	case feed.TapeMsg:
		t.Apply(msg)
	case feed.TapeGreeksMsg:
		t.ApplyGreeks(msg)
	case feed.ExchangesMsg:
		// Without the table the tape shows exchange ids; nothing to retry
		// for, so a failure is not shown.
		if msg.Err == nil {
			t.SetExchanges(msg.List)
		}
	}
	return t, nil
}

// View is the tape at the set size: a title with the filters, the trades
// newest first, and the legend.
func (t *Model) View() []string {
	rows := max(t.H-2, 0)
	t.page = max(rows, 1)
	t.collect(rows)
	t.tv = ui.TapeView{
		Trades: t.vis, Held: t.r.len(), BlockSize: t.blockSize, Filter: t.filter,
		Focused: t.Focused, Message: t.message(), Session: t.session,
		Cursor: t.cur, Greeks: t.greeks.on, GreeksNote: t.greeks.note,
	}
	return ui.Tape(&t.tv, t.W, t.H, t.sh.Styles)
}

// ShortHelp is the tape's filters.
func (t *Model) ShortHelp() []key.Binding {
	k := &t.sh.Keys
	return []key.Binding{k.TapeSide, k.TapeContract, k.MinSizeUp, k.MinSizeDown, k.TapeGreeks, k.Open}
}

// FullHelp is every key of the tape.
func (t *Model) FullHelp() [][]key.Binding {
	k := &t.sh.Keys
	return [][]key.Binding{t.ShortHelp(), {k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}
