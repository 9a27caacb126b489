// Package text is the one place that makes text from outside (a server's
// error body, a company name, a formula, a filter, a config value) safe to
// show: Clean removes what could drive a terminal, OneLine keeps one line
// of bounded length. It imports nothing of the terminal libraries, so the
// headless packages (feed, scan, config) use it as the screen does; fitting
// styled text to a width is ui.Fit, which needs the terminal's measure.
package text

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean makes s safe to print in a terminal: escape sequences (CSI, OSC,
// DCS, APC, PM, SOS, in their 7-bit and 8-bit forms) are removed whole, so
// neither `\x1b[2J` nor its visible tail `[2J` remains; a tab or a line
// break becomes a blank; any other control character (C0, DEL, C1) is
// dropped. Text without a control character is returned as is, without
// allocating: most of what is drawn every frame is plain.
func Clean(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r >= 0x80 && r <= 0x9f:
			i += c1Len(s[i:], r, n)
			continue
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case unicode.IsControl(r):
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// OneLine is the first line of s, cleaned and trimmed, at most max runes
// with "…" marking a cut (max <= 0: no cut). An error or a message must
// never run over several lines of a status bar or a log.
func OneLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(Clean(s))
	return Clip(s, max)
}

// EchoMax is the most of a user's own value a message repeats: enough to
// recognise it, never a screenful.
const EchoMax = 60

// Quote is how a message echoes what the user typed or wrote (a symbol, a
// date, a formula, a config value): cut at EchoMax runes and quoted in Go's
// syntax, so a refusal shows exactly what was refused, blanks included,
// and a control character or an escape sequence is shown escaped
// ("\x1b[2J"), never sent to the terminal nor dropped: a value made only
// of escape sequences is not echoed as "".
func Quote(s string) string { return strconv.Quote(Clip(s, EchoMax)) }

// Clip keeps the first max runes of s and marks a cut with "…" (max <= 0: no cut).
func Clip(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max]) + "…"
}

// hasControl reports whether s holds a byte that may start a control
// character: C0, DEL, or 0xc2, the lead byte of every C1 in UTF-8.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c == 0xc2 {
			return true
		}
	}
	return false
}

// escapeLen is the length of the escape sequence at the start of s (which
// begins with ESC): ESC [ ... final for CSI; ESC ] / P / X / ^ / _ up to
// BEL or ESC \ for the string sequences; else ESC and one character.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiLen(s[2:])
	case ']', 'P', 'X', '^', '_':
		return 2 + stringLen(s[2:])
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	return 1 + n
}

// c1Len is the length of what a C1 control r (n bytes) at the start of s
// introduces: CSI (0x9b) and the string controls take their sequence.
func c1Len(s string, r rune, n int) int {
	switch r {
	case 0x9b:
		return n + csiLen(s[n:])
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
		return n + stringLen(s[n:])
	}
	return n
}

// csiLen is the length of a CSI's parameters, intermediates and final
// byte (0x40 to 0x7e); an unfinished one runs to the end.
func csiLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		} else if c < 0x20 || c >= 0x7f {
			return i // not a CSI byte: stop here, keep the rest
		}
	}
	return len(s)
}

// stringLen is the length of a string sequence's body with its terminator:
// BEL, ESC \ or ST (0x9c); an unterminated one runs to the end.
func stringLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}
