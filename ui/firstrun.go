package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/text"
	"chainwatch/theme"
)

// FirstRun is what the first-run banner tells a new user: where the data
// comes from and which kind it is.
type FirstRun struct {
	Source     string // "SANDBOX", "LOCAL" or "PRODUCTION"
	BaseURL    string
	Mode       api.Mode
	Historical bool
	Date       api.Date
	HelpKey    string // the key that shows every key ("?"); "" not named
}

// sandbox reports whether the banner is for the embedded sandbox.
func (f *FirstRun) sandbox() bool { return strings.EqualFold(f.Source, "SANDBOX") }

// FirstRunBanner is the banner shown until the first key: 3 to 5 lines of
// width cells on the header shade. A new user must learn at a glance
// whether the prices are a simulation on their machine or their account's
// data, and whether live, delayed or a past day, before reading any of
// them; on the sandbox it also says how to switch to their account. Not a
// hot path.
func FirstRunBanner(f *FirstRun, width int, st *theme.Styles) []string {
	if width <= 0 || f == nil {
		return nil
	}
	var kind, badge string
	switch {
	case f.Historical:
		kind = "historical data for " + f.Date.String() + " (that day's close)"
		badge = "HIST " + f.Date.String()
	case f.Mode == api.Delayed:
		kind = "delayed data, 15 minutes behind"
		badge = "DELAYED"
	default:
		kind = "live data"
		badge = "LIVE"
	}
	var body string
	if f.sandbox() {
		body = "You are on the embedded SANDBOX: a simulated market on this machine, no account needed. " +
			upperFirst(kind) + ". To use your account: chainwatch login, or set CHAINWATCH_CLIENT_ID and CHAINWATCH_CLIENT_SECRET."
	} else {
		where := text.Clean(f.BaseURL)
		if where == "" {
			where = "your service"
		}
		body = "You are on " + where + ", " + kind + "."
	}

	fill := st.Span(theme.ToneText, theme.ShadeHeader)
	text := st.Span(theme.ToneText, theme.ShadeHeader)
	inner := max(width-2, 1)
	var out []string

	// Title with the source and mode as a badge on the right.
	t := newPaneLine(width, fill)
	t.blank(1)
	t.put(st.Span(theme.ToneAccent, theme.ShadeHeader), "Welcome to chainwatch.")
	src := "[" + strings.ToUpper(f.Source) + "] " + badge
	if t.room() > paneWidth(src)+2 {
		t.blank(t.room() - paneWidth(src) - 1)
		srcTone := theme.ToneAccent
		if f.sandbox() {
			srcTone = theme.ToneWarn
		}
		t.put(st.Span(srcTone, theme.ShadeHeader), src)
	}
	out = append(out, t.line())

	lines := strings.Split(ansi.Wrap(body, inner, ""), "\n")
	const maxBody = 3
	if len(lines) > maxBody {
		lines = lines[:maxBody]
		last := strings.TrimRight(lines[maxBody-1], " ")
		lines[maxBody-1] = ansi.Truncate(last, inner-1, "") + "…"
	}
	for _, ln := range lines {
		l := newPaneLine(width, fill)
		l.blank(1)
		l.put(text, strings.TrimRight(ln, " "))
		out = append(out, l.line())
	}
	d := newPaneLine(width, fill)
	d.blank(1)
	dismiss := "Any key dismisses this."
	if f.HelpKey != "" {
		dismiss = "Any key dismisses this; " + f.HelpKey + " shows every key."
	}
	d.put(st.Span(theme.ToneMuted, theme.ShadeHeader), dismiss)
	out = append(out, d.line())
	return out
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Prompt draws a one-line prompt, width cells: the label, the value with a
// block cursor, the suggestions (the selected one bracketed and on the
// cursor shade, so it shows without colour) and an error on the right.
// The error is kept over the suggestions and the label's parenthesised
// hint: it says why enter did nothing and what to type instead.
// selected < 0 selects none.
func Prompt(label, value string, suggestions []string, selected int, errMsg string, width int, st *theme.Styles) string {
	if width <= 0 {
		return ""
	}
	fill := st.Span(theme.ToneText, theme.ShadeHeader)
	l := newPaneLine(width, fill)
	l.blank(1)
	if i := strings.Index(label, " ("); i > 0 && errMsg != "" {
		label = label[:i] // the label's hint gives way to the refusal
	}
	if label != "" {
		l.put(st.Span(theme.ToneBold, theme.ShadeHeader), label+": ")
	}
	l.put(st.Span(theme.ToneText, theme.ShadeHeader), text.Clean(value))
	l.put(st.Span(theme.ToneText, theme.ShadeCursor), " ")

	errText := ""
	if errMsg != "" {
		// Half the line, or all that is left of it (the suggestions
		// giving way) when the refusal needs it; cut, it keeps its last
		// clause, which says what to type instead.
		msg := "⚠ " + text.OneLine(errMsg, 0)
		room := max(width/2, 12)
		if paneWidth(msg) > room {
			room = max(room, l.room()-2)
		}
		errText = CutKeepingTail(msg, room)
	}
	reserve := 0
	if errText != "" {
		reserve = paneWidth(errText) + 2
	}
	if len(suggestions) > 0 && l.room()-reserve > 4 {
		l.blank(2)
		for i, s := range suggestions {
			s = text.Clean(s)
			item := " " + s + " "
			sp := st.Span(theme.ToneMuted, theme.ShadeHeader)
			if i == selected {
				item = "[" + s + "]"
				sp = st.Span(theme.ToneText, theme.ShadeCursor)
			}
			if paneWidth(item) > l.room()-reserve {
				break
			}
			l.put(sp, item)
		}
	}
	if errText != "" {
		l.blank(l.room() - paneWidth(errText) - 1)
		l.put(st.Span(theme.ToneError, theme.ShadeHeader), errText)
	}
	return l.line()
}
