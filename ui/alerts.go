package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/text"
	"chainwatch/theme"
)

// AlertRow is one rule on the alerts page.
type AlertRow struct {
	Name    string
	On      bool
	State   string // "armed", "fired 10:41:03, re-arms under 699.30", "off"
	Fired   bool   // fired and not re-armed: drawn as news
	Last    string // the last value seen, "" none
	Cost    string // "on screen", "480 pts/h"
	Problem string // why its data is not coming
}

// AlertLogRow is one fired event on the page.
type AlertLogRow struct {
	Time string // 10:41:03
	Text string
	New  bool // fired this session
}

// AlertsView is what the alerts page shows.
type AlertsView struct {
	Rules   []AlertRow
	Cursor  int
	Offset  int
	Log     []AlertLogRow // newest first
	Message string        // instead of the rules when non-empty
	Note    Note
	Summary string // the title's right side: "2 rules · 480 pts/h of their own"
}

// AlertsRulesBody is how many rule rows a page of height h shows: about
// half the page, the log the rest.
func AlertsRulesBody(h int) int { return max((h-4)/2, 1) }

// Alerts draws the alerts page in width x height: a title, the rules
// (on or off, the rule, its state, its last value, its cost), then the
// log of what fired, newest first.
func Alerts(v *AlertsView, width, height int, st *theme.Styles) []string {
	out := blankPane(width, height)
	if width <= 0 || height <= 0 {
		return out
	}
	t := newPaneLine(width, st.Span(theme.ToneText, theme.ShadeHeader))
	t.put(st.Span(theme.ToneAccent, theme.ShadeHeader), " Alerts")
	if v.Summary != "" {
		t.put(st.Span(theme.ToneMuted, theme.ShadeHeader), " · "+text.Clean(v.Summary))
	}
	out[0] = t.line()
	if v.Message != "" {
		// Wrapped: why alerts are off names a file and line, which a
		// cut line would lose.
		top := min(2, height-1)
		for i, ln := range wrapWords(text.Clean(v.Message), width-2) {
			if top+i >= height {
				break
			}
			out[top+i] = centeredMessage(ln, width, st)
		}
		return out
	}
	body := AlertsRulesBody(height)
	row := 1
	for i := v.Offset; i < len(v.Rules) && i < v.Offset+body && row < height; i++ {
		out[row] = alertRuleLine(&v.Rules[i], i == v.Cursor, width, st)
		row++
	}
	if v.Note.Text != "" && row < height {
		tone := theme.ToneMuted
		if v.Note.Tone == ToneWarn || v.Note.Tone == ToneError {
			tone = theme.ToneWarn
		}
		l := newPaneLine(width, theme.Span{})
		l.put(st.Span(tone, theme.ShadeNone), " "+text.Clean(v.Note.Text))
		out[row] = l.line()
		row++
	}
	row = max(row, body+1)
	if row < height {
		l := newPaneLine(width, theme.Span{})
		l.put(st.Span(theme.ToneBold, theme.ShadeNone), " Fired")
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), " (newest first)")
		out[row] = l.line()
		row++
	}
	if len(v.Log) == 0 && row < height {
		out[row] = Fit(st.Span(theme.ToneMuted, theme.ShadeNone).Wrap(" nothing has fired yet"), width)
	}
	for i := 0; i < len(v.Log) && row < height; i++ {
		e := &v.Log[i]
		l := newPaneLine(width, theme.Span{})
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), " "+e.Time+"  ")
		tone := theme.ToneText
		if e.New {
			tone = theme.ToneAccent
		}
		l.put(st.Span(tone, theme.ShadeNone), text.Clean(e.Text))
		out[row] = l.line()
		row++
	}
	return out
}

// alertRuleLine is one rule: on/off mark, name, state, last, cost.
func alertRuleLine(r *AlertRow, cursor bool, width int, st *theme.Styles) string {
	shade := theme.ShadeNone
	if cursor {
		shade = theme.ShadeCursor
	}
	l := newPaneLine(width, st.Span(theme.ToneText, shade))
	mark, tone := " ● ", theme.ToneGood
	if !r.On {
		mark, tone = " ○ ", theme.ToneMuted
	}
	l.put(st.Span(tone, shade), mark)
	nameW := min(max(width/3, 20), 44)
	// Fit, not padRight: a name is not ASCII ("≥"), and a cut in bytes
	// would split a rune.
	l.put(st.Span(theme.ToneBold, shade), Fit(Cut(text.Clean(r.Name), nameW), nameW)+"  ")
	stTone := theme.ToneMuted
	switch {
	case r.Problem != "":
		stTone = theme.ToneWarn
	case r.Fired:
		stTone = theme.ToneAccent
	}
	state := r.State
	if r.Problem != "" {
		state = r.Problem
	}
	if r.Last != "" {
		l.put(st.Span(theme.ToneText, shade), Fit(Cut(text.Clean(r.Last), 10), 10)+" ")
	}
	// The state is a sentence ("fired 10:41:03; re-arms past the
	// margin"): cut at a word, the cost kept beside it where it fits.
	room := l.room() - 1
	if r.Cost != "" && room > 2*(ansi.StringWidth(r.Cost)+2) {
		room -= ansi.StringWidth(r.Cost) + 2
	}
	l.put(st.Span(stTone, shade), CutWords(text.Clean(state), room))
	if r.Cost != "" && l.room() > len(r.Cost)+2 {
		l.blank(l.room() - ansi.StringWidth(r.Cost) - 1)
		l.put(st.Span(theme.ToneMuted, shade), r.Cost)
	}
	return l.line()
}

// AlertDialogView is the alert dialog.
type AlertDialogView struct {
	Title string   // "New alert · SPY261120C00700000"
	Kinds []string // the kinds on offer
	Kind  int
	When  string // "above", "below", "at least"; "" for none
	Label string // the value's name: "level", "contracts", "points"
	Value string // as typed
	Now   string // the data now: "mid 2.31 · bid 2.29 · ask 2.33 · IV 18.2%"
	Rule  string // the rule in words, as it would be armed
	Cost  string
	Err   string
	Keys  string
}

// FrameSize is the size of a whole frame as drawn (lines of equal width):
// what an overlay drawn over it is sized by.
func FrameSize(frame string) (width, height int) {
	if frame == "" {
		return 0, 0
	}
	first, _, _ := strings.Cut(frame, "\n")
	return ansi.StringWidth(first), strings.Count(frame, "\n") + 1
}

// AlertDialogOver draws the dialog centred over screen (a whole frame).
func AlertDialogOver(screen string, v *AlertDialogView, width, height int, st *theme.Styles) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	inner := min(max(width-8, 30), 76)
	var kinds []string
	for i, k := range v.Kinds {
		if i == v.Kind {
			kinds = append(kinds, st.Title.Render("‹"+k+"›"))
		} else {
			kinds = append(kinds, st.Muted.Render(k))
		}
	}
	lines := []string{
		st.Title.Render(text.Clean(v.Title)),
		"",
		st.Label.Render("kind   ") + strings.Join(kinds, " "),
	}
	if v.Label != "" {
		when := v.When
		if when != "" {
			when += " "
		}
		lines = append(lines, st.Label.Render(padRight(v.Label, 7))+st.Value.Render(when)+st.Title.Render(text.Clean(v.Value)+"▏"))
	}
	for _, kv := range [][2]string{{"now", v.Now}, {"rule", v.Rule}, {"cost", v.Cost}} {
		if kv[1] != "" {
			lines = append(lines, st.Label.Render(padRight(kv[0], 7))+st.Value.Render(ansi.Wrap(text.Clean(kv[1]), inner-7, "")))
		}
	}
	if v.Err != "" {
		lines = append(lines, st.Error.Render(ansi.Wrap(text.Clean(v.Err), inner, "")))
	}
	lines = append(lines, "", st.Help.Render(v.Keys))
	box := strings.Split(st.Box.Width(inner+4).Render(lipgloss.JoinVertical(lipgloss.Left, lines...)), "\n")
	if len(box) > height {
		box = box[:height]
	}
	out := paneBlock(screen, width, height)
	bw := ansi.StringWidth(box[0])
	x, y := max((width-bw)/2, 0), max((height-len(box))/2, 0)
	for i, b := range box {
		ln := out[y+i]
		out[y+i] = ansi.Truncate(ln, x, "") + b + ansi.TruncateLeft(ln, x+bw, "")
	}
	return strings.Join(out, "\n")
}
