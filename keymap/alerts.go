package keymap

import "charm.land/bubbles/v2/key"

// AlertKeys are the alerts page's own keys and the alert dialog's. The
// page also answers to the movement keys, help and quit.
type AlertKeys struct {
	Toggle, Delete, Edit, Back key.Binding
	// The dialog: the kind of rule, above or below, arm, cancel; digits
	// and the point are typed into its value.
	PrevKind, NextKind, Flip, Arm, Cancel, Backspace key.Binding
}

// Alerts is the alerts page's and the dialog's key map.
func Alerts() AlertKeys {
	return AlertKeys{
		Toggle:    key.NewBinding(key.WithKeys("space", "o"), key.WithHelp("space", "on/off")),
		Delete:    key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "delete")),
		Edit:      key.NewBinding(key.WithKeys("e", "enter"), key.WithHelp("e", "edit")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		PrevKind:  key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "kind")),
		NextKind:  key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "kind")),
		Flip:      key.NewBinding(key.WithKeys("tab", "up", "down"), key.WithHelp("tab", "above/below")),
		Arm:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "arm")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Backspace: key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("⌫", "delete")),
	}
}

// FullHelp is the alerts page's help: its keys, then the screen's that
// work on it.
func (a AlertKeys) FullHelp(k KeyMap) [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom},
		{a.Toggle, a.Edit, a.Delete, a.Back},
		{k.Help, k.Quit, k.Interrupt},
	}
}

// ShortHelp is the page's keys a newcomer needs first.
func (a AlertKeys) ShortHelp() []key.Binding {
	return []key.Binding{a.Toggle, a.Edit, a.Delete, a.Back}
}

// DialogHelp is the dialog's keys.
func (a AlertKeys) DialogHelp() []key.Binding {
	return []key.Binding{a.PrevKind, a.NextKind, a.Flip, a.Arm, a.Cancel}
}
