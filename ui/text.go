package ui

import "github.com/charmbracelet/x/ansi"

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
// message lines and titles.
func Cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if paneWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}
