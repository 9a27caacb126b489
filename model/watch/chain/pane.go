package chain

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/ui"
)

var _ common.Pane[*Model] = (*Model)(nil)

// Update takes a key or a chain reply. The expiry, column-set and window
// keys are the ladder's whatever has the focus; movement only when it is
// focused. The root reads Expiry and SelectedOSI afterwards to learn what
// changed: the ladder never reaches into another part.
func (c *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		keys := &c.sh.Keys
		if c.Focused || key.Matches(msg, keys.PrevExpiry, keys.NextExpiry, keys.Columns, keys.Window) {
			c.handleKey(msg)
			c.layout()
		}
	case feed.ChainMsg:
		c.Apply(msg)
	}
	return c, nil
}

// View is the ladder at the set size, the cursor drawn when focused, as
// laid out after the last change (layout); only the flashes' age is read
// at drawing time.
func (c *Model) View() []string {
	lv := c.lv
	lv.Now = c.sh.Now().UnixNano()
	return ui.Ladder(&lv, c.W, c.H, c.sh.Styles)
}

// SetSize sets the size View draws.
func (c *Model) SetSize(width, height int) {
	c.Frame.SetSize(width, height)
	c.layout()
}

// SetFocused says whether the movement keys are the ladder's.
func (c *Model) SetFocused(focused bool) {
	c.Frame.SetFocused(focused)
	c.layout()
}

// ShortHelp is the ladder's keys a newcomer needs first.
func (c *Model) ShortHelp() []key.Binding {
	k := &c.sh.Keys
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.PrevExpiry, k.NextExpiry}
}

// FullHelp is every key of the ladder.
func (c *Model) FullHelp() [][]key.Binding {
	k := &c.sh.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Left, k.Right, k.PrevExpiry, k.NextExpiry, k.Columns, k.Window},
	}
}

// TabsView is the expiry tabs in one line of width cells.
func (c *Model) TabsView(width int) string {
	tabs, sel := c.Tabs()
	return ui.ExpiryTabs(tabs, sel, width, c.sh.Styles)
}

// DetailsView is the selected contract's details pane.
func (c *Model) DetailsView(width, height int) []string {
	d, _ := c.Selected()
	return ui.Details(&d, width, height, c.sh.Styles)
}

// Strikes is how many strikes the selected expiry lists.
func (c *Model) Strikes() int { return len(c.rows()) }

// message is what the ladder shows instead of rows, "" when it has rows.
func (c *Model) message(rows int) string {
	switch {
	case rows > 0:
		return ""
	case c.noSuch:
		return "no such symbol: " + c.q.Symbol
	case c.err != nil:
		return c.q.Symbol + ": " + api.Describe(c.err, "")
	case c.loading || c.fullAt.IsZero():
		return "loading " + c.q.Symbol + "…"
	case len(c.st.exps) == 0:
		return "no options listed for " + c.q.Symbol
	}
	return "no options listed for " + c.q.Symbol + " on " + c.expiry.String()
}
