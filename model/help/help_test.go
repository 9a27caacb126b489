package help

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"chainwatch/model/common"
	"chainwatch/model/modeltest"
)

// TestHelpClosesAndQuits: ? and esc close the help, q quits, any other
// key does nothing; it shows the keys it was opened with.
func TestHelpClosesAndQuits(t *testing.T) {
	sh := modeltest.Common(modeltest.Now)
	h := New(sh, sh.Keys.FullHelp())
	for _, c := range []struct {
		key  tea.KeyPressMsg
		want common.Action
	}{
		{tea.KeyPressMsg{Code: '?', Text: "?"}, common.Close{}},
		{tea.KeyPressMsg{Code: tea.KeyEscape}, common.Close{}},
		{tea.KeyPressMsg{Code: 'q', Text: "q"}, common.Quit{}},
		{tea.KeyPressMsg{Code: 'x', Text: "x"}, nil},
	} {
		if _, act := h.Update(c.key); act != c.want {
			t.Errorf("%s: %#v, want %#v", c.key, act, c.want)
		}
	}
	if len(h.FullHelp()) != len(sh.Keys.FullHelp()) {
		t.Error("the help does not show the page's keys")
	}
}
