// Package help is the help overlay: the keys of the page under it, drawn
// over that page, until help or esc closes it.
package help

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/model/common"
	"chainwatch/ui"
)

// Model is the help over a page whose keys are Keys.
type Model struct {
	sh   *common.Common
	keys [][]key.Binding
}

var _ common.Overlay = (*Model)(nil)

// New is the help of a page with keys.
func New(sh *common.Common, keys [][]key.Binding) *Model { return &Model{sh: sh, keys: keys} }

// SetSize: the help is sized by the frame it is drawn over (Over).
func (m *Model) SetSize(int, int) {}

// ShortHelp and FullHelp are the keys it shows.
func (m *Model) ShortHelp() []key.Binding  { return nil }
func (m *Model) FullHelp() [][]key.Binding { return m.keys }

// Update: quit quits, help or esc closes; any other key is ignored.
func (m *Model) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	keys := m.sh.Keys
	switch {
	case !ok:
	case key.Matches(k, keys.Quit):
		return nil, common.Quit{}
	case key.Matches(k, keys.Help), key.Matches(k, keys.Close):
		return nil, common.Close{}
	}
	return nil, nil
}

// View is drawn over the page's frame (Over).
func (m *Model) View() []string { return nil }

// Over is the help drawn over frame, the page under it.
func (m *Model) Over(frame string) string {
	w, h := ui.FrameSize(frame)
	return ui.HelpOver(frame, m.keys, w, h, m.sh.Styles)
}
