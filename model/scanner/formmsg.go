package scanner

import (
	"reflect"
	"runtime"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// formMsg is a message one of the modal's huh forms produced, tagged with
// that form's generation. huh's messages for moving between fields and
// groups carry no form id: one arriving after the modal built another form
// (enter on Sort, then ctrl+l at once) would advance, or complete, the new
// one. Tagged, it reaches only the form that asked for it.
type formMsg struct {
	gen uint64
	msg tea.Msg
}

// cmdType is tea.Cmd's type, for recognising tea.Sequence's message, a
// slice of commands whose type bubbletea does not export.
var cmdType = reflect.TypeFor[tea.Cmd]()

// tagCmd runs cmd and tags what it returns with gen. Batches and sequences
// are opened so bubbletea still runs their commands, each tagged in turn.
//
// A cursor's blink is left untagged, so Model.Update drops it and the
// cursor stays solid: no redraw twice a second over SSH, and a blink is a
// timer the tests' driver recognises by its function and skips.
func tagCmd(gen uint64, cmd tea.Cmd) tea.Cmd {
	if cmd == nil || isBlink(cmd) {
		return cmd
	}
	return func() tea.Msg {
		msg := cmd()
		switch m := msg.(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(m))
			for i, c := range m {
				out[i] = tagCmd(gen, c)
			}
			return out
		}
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			cmds := make([]tea.Cmd, v.Len())
			for i := range cmds {
				c, _ := v.Index(i).Interface().(tea.Cmd)
				cmds[i] = tagCmd(gen, c)
			}
			return tea.Sequence(cmds...)()
		}
		return formMsg{gen: gen, msg: msg}
	}
}

// isBlink reports whether cmd is a text cursor's blink timer.
func isBlink(cmd tea.Cmd) bool {
	f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer())
	return f != nil && strings.HasPrefix(f.Name(), "charm.land/bubbles/v2/cursor.")
}
