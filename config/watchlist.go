package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The watchlist is a top-level key of the config file:
//
//	watchlist = ["SPY", "QQQ", "IWM"]
//
// or one symbol a line, each with a comment if the trader likes. Each
// entry is checked by the one symbol rule (ParseSymbol); one that fails
// it, repeats an earlier one or goes past MaxWatchlist is reported with
// its line and skipped, and the rest of the list is used.

// WatchlistProblem is an entry of the watchlist that is not used: its line
// in the file (0 when it could not be told) and why.
type WatchlistProblem struct {
	Line int
	Msg  string
}

// WatchlistSymbols is the file's watchlist, or DefaultWatchlist when the
// file does not have one.
func (fc File) WatchlistSymbols() []string {
	if fc.Watchlist == nil {
		return slices.Clone(DefaultWatchlist)
	}
	return slices.Clone(*fc.Watchlist)
}

// WatchlistWarnings are the skipped entries as messages that name the
// file and the line: "config.toml:7: watchlist: symbol "S P Y": ...;
// skipped".
func (fc File) WatchlistWarnings() []string {
	out := make([]string, 0, len(fc.WatchlistSkipped))
	for _, p := range fc.WatchlistSkipped {
		where := fc.Service.Path
		if p.Line > 0 {
			where += ":" + strconv.Itoa(p.Line)
		}
		out = append(out, where+": watchlist: "+p.Msg+"; skipped")
	}
	return out
}

// checkWatchlist keeps the entries of the watchlist that are symbols,
// upper-cased, once each, at most MaxWatchlist, and records the others
// with the lines text (the file) has them on.
func (fc *File) checkWatchlist(text string) {
	fc.WatchlistSkipped = nil
	if fc.Watchlist == nil {
		return
	}
	v, found := findWatchlist(text)
	line := func(i int) int {
		switch {
		case found && v.ok && len(v.items) == len(*fc.Watchlist):
			return v.items[i].line
		case found:
			return v.keyLine
		}
		return 0
	}
	kept := make([]string, 0, len(*fc.Watchlist))
	at := make(map[string]int, len(*fc.Watchlist))
	for i, raw := range *fc.Watchlist {
		sym, err := ParseSymbol(raw)
		switch first, dup := at[sym]; {
		case err != nil:
			fc.WatchlistSkipped = append(fc.WatchlistSkipped, WatchlistProblem{line(i), err.Error()})
		case dup:
			msg := sym + " is already on the watchlist"
			if l := line(first); l > 0 && l != line(i) {
				msg += " (line " + strconv.Itoa(l) + ")"
			}
			fc.WatchlistSkipped = append(fc.WatchlistSkipped, WatchlistProblem{line(i), msg})
		case len(kept) == MaxWatchlist:
			fc.WatchlistSkipped = append(fc.WatchlistSkipped, WatchlistProblem{line(i),
				fmt.Sprintf("%s is past the %d symbols a watchlist holds", sym, MaxWatchlist)})
		default:
			at[sym] = i
			kept = append(kept, sym)
		}
	}
	*fc.Watchlist = kept
}

// CheckWatchlist checks a watchlist the screen is about to save: every
// entry a symbol, none twice, at most MaxWatchlist. It returns the list
// upper-cased.
func CheckWatchlist(symbols []string) ([]string, error) {
	if len(symbols) > MaxWatchlist {
		return nil, fmt.Errorf("%d symbols; a watchlist holds at most %d", len(symbols), MaxWatchlist)
	}
	out := make([]string, 0, len(symbols))
	for _, s := range symbols {
		sym, err := ParseSymbol(s)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, sym) {
			return nil, fmt.Errorf("%s is on the list twice", sym)
		}
		out = append(out, sym)
	}
	return out, nil
}

// watchValue is where the watchlist is written in the file's text: the
// key's line and the array from its "[" (lo) to after its "]" (hi), read
// item by item when ok. A value the reader does not follow (a multi-line
// string in it, say) is found but not ok: its line still names the key.
type watchValue struct {
	keyLine int
	lo, hi  int
	ok      bool

	items []arrayItem
	// open is a comment after the "[" on the key's line; tail the
	// comment lines after the last item; indent the items' indentation
	// and closeIndent the "]"'s, when each is on a line of its own.
	open, indent, closeIndent string
	tail                      []string
	multiline                 bool
}

// arrayItem is one string of the array as written, quotes included, with
// the comments that belong to it: those on the lines right above it and
// the one after it on its line.
type arrayItem struct {
	line  int
	at    int
	text  string
	above []string
	after string
}

// findWatchlist finds the top-level watchlist key in text: before the
// first table header, written bare or quoted.
func findWatchlist(text string) (watchValue, bool) {
	for n, l := range tomlLines(text) {
		if l.cont {
			continue
		}
		if _, ok := l.header(); ok {
			break // keys after a header are the table's
		}
		t := strings.TrimLeft(l.text, " \t")
		rest, ok := cutWatchlistKey(t)
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(rest, "=") {
			continue
		}
		at := l.at + len(l.text) - len(rest) + 1
		for at < len(text) && (text[at] == ' ' || text[at] == '\t') {
			at++
		}
		v := watchValue{keyLine: n + 1, lo: at}
		if at < len(text) && text[at] == '[' {
			v.read(text)
		}
		return v, true
	}
	return watchValue{}, false
}

// cutWatchlistKey returns what follows the key watchlist at the start of t.
func cutWatchlistKey(t string) (string, bool) {
	for _, k := range []string{"watchlist", `"watchlist"`, "'watchlist'"} {
		if rest, ok := strings.CutPrefix(t, k); ok && (rest == "" || strings.ContainsAny(rest[:1], " \t=")) {
			return rest, true
		}
	}
	return "", false
}

// read follows the array from v.lo: strings on one line, commas, blanks,
// line breaks and comments. Anything else (a multi-line string, a nested
// array) leaves v not ok.
func (v *watchValue) read(text string) {
	line := v.keyLine
	var above []string // comments since the last item, for the next one
	for i := v.lo + 1; i < len(text); {
		switch c := text[i]; {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == ',':
			i++
		case c == '#':
			i, above = v.comment(text, i, line, above)
		case c == '"' || c == '\'':
			end, ok := v.item(text, i, line, above)
			if !ok {
				return
			}
			i, above = end, nil
		case c == ']':
			v.close(text, i, above)
			return
		default:
			return
		}
	}
}

// comment reads the comment at i, on line, to its line's end (returned),
// and files it with what it belongs to, so that a rewritten list keeps it
// there: the item before it on its line, the "[" on the key's line, else
// the next item or the "]" (above, returned).
func (v *watchValue) comment(text string, i, line int, above []string) (int, []string) {
	end := len(text)
	if n := strings.IndexByte(text[i:], '\n'); n >= 0 {
		end = i + n
	}
	com := strings.TrimRight(text[i:end], " \t\r")
	n := len(v.items)
	switch {
	case n > 0 && v.items[n-1].line == line && v.items[n-1].after == "":
		v.items[n-1].after = com
	case n == 0 && line == v.keyLine:
		v.open = com
	default:
		above = append(above, com)
	}
	return end, above
}

// item reads the string at i, quotes included, as the next item, with the
// comments above it, and returns where it ends. ok is false for a string
// the reader does not follow: a multi-line one, or one whose closing quote
// is not on its line.
func (v *watchValue) item(text string, i, line int, above []string) (end int, ok bool) {
	c := text[i]
	if strings.HasPrefix(text[i:], strings.Repeat(string(c), 3)) {
		return 0, false
	}
	j := i + 1
	for j < len(text) && text[j] != c && text[j] != '\n' {
		if c == '"' && text[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(text) || text[j] != c {
		return 0, false
	}
	v.items = append(v.items, arrayItem{line: line, at: i, text: text[i : j+1], above: above})
	return j + 1, true
}

// close ends the array at the "]" at i, the comments left above it its
// tail, and keeps how the array is laid out (on one line or several, the
// items' and the "]"'s indentation) for a rewritten list to follow.
func (v *watchValue) close(text string, i int, above []string) {
	v.hi, v.tail, v.ok = i+1, above, true
	v.multiline = strings.Contains(text[v.lo:v.hi], "\n")
	v.indent = "  "
	if len(v.items) > 0 {
		if ind, ok := lineIndent(text, v.items[0].at); ok {
			v.indent = ind
		}
	}
	if ind, ok := lineIndent(text, i); ok {
		v.closeIndent = ind
	}
}

// lineIndent is the blanks before at on its line, if only blanks are.
func lineIndent(text string, at int) (string, bool) {
	start := strings.LastIndexByte(text[:at], '\n') + 1
	ind := text[start:at]
	return ind, strings.Trim(ind, " \t") == ""
}

// symbol is the item's symbol as the rule reads it; "" when its string
// does not decode.
func (it arrayItem) symbol() string {
	s := it.text
	if strings.HasPrefix(s, "'") {
		s = strings.Trim(s, "'")
	} else {
		var err error
		if s, err = strconv.Unquote(s); err != nil {
			return ""
		}
	}
	sym, err := ParseSymbol(s)
	if err != nil {
		return ""
	}
	return sym
}
