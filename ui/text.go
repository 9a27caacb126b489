package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Cleaning outside text is package text's (text.Clean, text.OneLine),
// shared with the headless packages; fitting a styled line to a width
// needs the terminal's measure and lives here.

// Fit pads or cuts s (which may be styled) to exactly w cells: the one
// fitting of a line to a width, for every pane and overlay.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := paneWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "")
		n = ansi.StringWidth(s)
	}
	return s + paneBlank(w-n)
}

// Cut cuts s (which may be styled) to at most w cells, ending in "…" when
// anything was cut; it does not pad. The one cut-with-an-ellipsis, for
// titles and cells (an expression, a name); a sentence is CutWords'.
func Cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if paneWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// CutWords is Cut for a sentence (a notice, a rule's state): cut at the
// end of a word where one is near (cutWords), so no message reads
// "re-arms past the margi…".
func CutWords(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if paneWidth(s) <= w {
		return s
	}
	if w == 1 {
		return "…"
	}
	return cutWords(s, w-1) + "…"
}

// cutWords is s cut to at most w cells at the end of a word: at the last
// blank in its last third, else (a long word) at w. It adds no ellipsis.
func cutWords(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if paneWidth(s) <= w {
		return s
	}
	cut := ansi.Truncate(s, w, "")
	plain := ansi.Strip(cut)
	// The cut falls on a blank, or just before one: a word's end.
	if strings.HasSuffix(plain, " ") || strings.HasSuffix(ansi.Strip(ansi.Truncate(s, w+1, "")), " ") {
		return strings.TrimRight(cut, " ")
	}
	if i := strings.LastIndexByte(plain, ' '); i >= 0 && ansi.StringWidth(plain[:i]) >= w*2/3 {
		return strings.TrimRight(ansi.Truncate(s, ansi.StringWidth(plain[:i]), ""), " ")
	}
	return cut
}

// CutKeepingTail is s in at most w cells, its last clause (after the last
// "; ") kept whole where it fits and the head cut with "…" instead: a
// message's last clause is its point, the day to try or the fix. Either
// is cut at a word's end (CutWords), as every sentence is.
func CutKeepingTail(s string, w int) string {
	if paneWidth(s) <= w {
		return s
	}
	i := strings.LastIndex(s, "; ")
	if i < 0 {
		return CutWords(s, w)
	}
	head, tail := s[:i], s[i:]
	room := w - paneWidth(tail) - 1
	if room < 8 {
		return CutWords(s, w)
	}
	return cutWords(head, room) + "…" + tail
}

// CutAtItems is items joined by sep in at most w cells: whole items from
// the first, "…" after the last that fits when some are left off, so that
// no item reads as something it is not ("pgdn next…").
func CutAtItems(items []string, sep string, w int) string {
	if all := strings.Join(items, sep); paneWidth(all) <= w {
		return all
	}
	var b strings.Builder
	for i, it := range items {
		next := it
		if i > 0 {
			next = sep + it
		}
		if paneWidth(b.String())+paneWidth(next)+paneWidth(sep+"…") > w {
			if b.Len() == 0 {
				return Cut(it, w)
			}
			return b.String() + sep + "…"
		}
		b.WriteString(next)
	}
	return b.String()
}
