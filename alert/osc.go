package alert

import (
	"strings"

	"chainwatch/text"
)

// A desktop notification through the terminal: an escape sequence the
// terminal turns into a notification of the desktop (OSC 9, iTerm2's;
// OSC 777, rxvt's and VTE's), so it works over SSH and needs no program
// on the machine. A terminal that does not know the sequence ignores it,
// but some give OSC 9 another meaning (ConEmu and Windows Terminal: a
// progress bar), so it is sent only to terminals known to show it. Inside
// tmux it is wrapped for tmux to pass on to the terminal outside, which
// tmux does with `set -g allow-passthrough on` (tmux 3.3 and later).

// Desktop is how notifications reach the desktop from this terminal.
type Desktop struct {
	Proto    string // "osc9", "osc777", or "" for none
	Terminal string // the terminal it was told by
	Tmux     bool   // wrapped for tmux's passthrough
}

// terminals are the terminals known to show a notification, by what they
// set in the environment, first match first.
var terminals = []struct {
	env, value, name, proto string
}{
	{"TERM_PROGRAM", "iTerm.app", "iTerm2", "osc9"},
	{"ITERM_SESSION_ID", "", "iTerm2", "osc9"},
	{"TERM_PROGRAM", "WezTerm", "WezTerm", "osc777"},
	{"WEZTERM_EXECUTABLE", "", "WezTerm", "osc777"},
	{"TERM_PROGRAM", "ghostty", "Ghostty", "osc777"},
	{"GHOSTTY_RESOURCES_DIR", "", "Ghostty", "osc777"},
	{"KITTY_WINDOW_ID", "", "kitty", "osc9"},
	{"TERM", "xterm-kitty", "kitty", "osc9"},
	{"TERM", "foot", "foot", "osc777"},
	{"TERM", "foot-extra", "foot", "osc777"},
	{"TERM", "rxvt-unicode", "rxvt-unicode (with its notify extension)", "osc777"},
	{"TERM", "rxvt-unicode-256color", "rxvt-unicode (with its notify extension)", "osc777"},
	{"VTE_VERSION", "", "a VTE terminal (GNOME Terminal, Tilix: where its VTE shows OSC 777)", "osc777"},
}

// DetectDesktop is how to notify from the terminal getenv describes;
// mode is config's [alerts] desktop: auto (detect), osc9, osc777 (that
// sequence whatever the terminal) or off.
func DetectDesktop(getenv func(string) string, mode string) Desktop {
	d := Desktop{Tmux: getenv("TMUX") != ""}
	switch mode {
	case "off":
		return Desktop{}
	case "osc9", "osc777":
		d.Proto, d.Terminal = mode, "as the config file's [alerts] desktop says"
		return d
	}
	for _, t := range terminals {
		v := getenv(t.env)
		if v != "" && (t.value == "" || v == t.value) {
			d.Proto, d.Terminal = t.proto, t.name
			return d
		}
	}
	return Desktop{Tmux: d.Tmux}
}

// Describe says what Detect found, for `chainwatch alerts --check-terminal`.
func (d Desktop) Describe() string {
	if d.Proto == "" {
		s := "no desktop notifications: this terminal is not one known to show them (iTerm2, WezTerm, Ghostty, kitty, foot, rxvt-unicode, VTE); " +
			"set [alerts] desktop = \"osc9\" or \"osc777\" in the config file to send one anyway, or use --exec"
		if d.Tmux {
			s += " (inside tmux the terminal outside is told by the variables it passed on)"
		}
		return s
	}
	s := "desktop notifications by " + strings.ToUpper(d.Proto[:3]) + " " + d.Proto[3:] + " for " + d.Terminal
	if d.Tmux {
		s += ", through tmux (it passes them on with `set -g allow-passthrough on`, tmux 3.3 and later)"
	}
	return s
}

// Sequence is the escape sequence that notifies title and body; "" with
// no protocol. Control characters in them are removed, and ';' in the
// title of OSC 777, which separates its fields.
func (d Desktop) Sequence(title, body string) string {
	title, body = clean(title), clean(body)
	var seq string
	switch d.Proto {
	case "osc9":
		seq = "\x1b]9;" + title + ": " + body + "\x07"
	case "osc777":
		seq = "\x1b]777;notify;" + strings.ReplaceAll(title, ";", ",") + ";" + body + "\x07"
	default:
		return ""
	}
	if d.Tmux {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return seq
}

// clean is s on one line without control characters, bounded.
func clean(s string) string { return text.OneLine(s, 200) }
