package keymap

import "charm.land/bubbles/v2/key"

// ReplayKeys drive `chainwatch replay`'s clock. They are keys no page
// uses, so they work on every page of a replay.
type ReplayKeys struct {
	Pause, Slower, Faster, Back, Forward key.Binding
}

// Replay returns the replay's keys.
func Replay() ReplayKeys {
	return ReplayKeys{
		Pause:   key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "replay: pause/resume")),
		Slower:  key.NewBinding(key.WithKeys("("), key.WithHelp("(", "replay: half as fast")),
		Faster:  key.NewBinding(key.WithKeys(")"), key.WithHelp(")", "replay: twice as fast")),
		Back:    key.NewBinding(key.WithKeys("{"), key.WithHelp("{", "replay: a minute back")),
		Forward: key.NewBinding(key.WithKeys("}"), key.WithHelp("}", "replay: a minute on")),
	}
}

// Bindings are the keys in the help's order.
func (k ReplayKeys) Bindings() []key.Binding {
	return []key.Binding{k.Pause, k.Slower, k.Faster, k.Back, k.Forward}
}
