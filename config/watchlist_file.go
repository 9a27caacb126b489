package config

import (
	"fmt"
	"slices"
	"strings"
)

// SaveWatchlist writes symbols as the config file's watchlist, in their
// order, as the scans are saved: the file is edited as text, only the
// array changes (or one key is added), and the result is put in place
// only after it reads back as exactly these symbols and every other
// setting as before. Each symbol keeps the comments written beside it,
// wherever it moves; a removed symbol's comments go with it. A missing
// file is created 0600.
func SaveWatchlist(path string, symbols []string, rule ScanRule) error {
	want, err := CheckWatchlist(symbols)
	if err != nil {
		return fmt.Errorf("cannot save the watchlist: %w", err)
	}
	return editFile(path, rule, "save the watchlist", "the watchlist", func(text string, fc File) (textEdit, func(File) error, error) {
		nl := newline(text)
		var e textEdit
		switch v, found := findWatchlist(text); {
		case found && !v.ok:
			return e, nil, fmt.Errorf("%s:%d: the watchlist is not a plain array of quoted symbols (\"SPY\", ...); write it as one, or edit it by hand", path, v.keyLine)
		case found:
			e = textEdit{lo: v.lo, hi: v.hi, insert: v.render(want, nl)}
		default:
			e = insertWatchlist(text, want, nl)
		}
		verify := func(after File) error {
			if after.Watchlist == nil || !slices.Equal(*after.Watchlist, want) || len(after.WatchlistSkipped) > 0 {
				return fmt.Errorf("the edited file would not hold the intended watchlist; %s is unchanged", path)
			}
			before := fc
			after.Watchlist, before.Watchlist = nil, nil
			after.WatchlistSkipped, before.WatchlistSkipped = nil, nil
			return sameSettings(path, after, before)
		}
		return e, verify, nil
	})
}

// watchlistComment introduces a watchlist key that chainwatch adds.
const watchlistComment = "# The watchlist page (W) and `chainwatch quotes`; the page edits this list."

// insertWatchlist adds the watchlist key to a file without one. A
// top-level key must come before the first table, so it goes above the
// first header and the comment lines right above that header (they
// describe the table); in a file without tables, at its end.
func insertWatchlist(text string, symbols []string, nl string) textEdit {
	block := watchlistComment + nl + "watchlist = " + renderArray(nil, symbols, nl, "  ", "") + nl
	lines := tomlLines(text)
	for i, l := range lines {
		if _, ok := l.header(); !ok || l.cont {
			continue
		}
		at := i
		for at > 0 && isComment(lines[at-1]) {
			at--
		}
		e := textEdit{lo: lines[at].at, hi: lines[at].at, insert: block + nl}
		if at > 0 && strings.TrimSpace(lines[at-1].text) != "" {
			e.insert = nl + e.insert
		}
		return e
	}
	return textEdit{lo: len(text), hi: len(text), insert: appendBlock(text, block)}
}

func isComment(l tomlLine) bool {
	return !l.cont && strings.HasPrefix(strings.TrimSpace(l.text), "#")
}

// render is the array holding symbols, written as v was: on one line if
// it was, else one symbol a line with the comments each had.
func (v *watchValue) render(symbols []string, nl string) string {
	if !v.multiline {
		return renderArray(nil, symbols, nl, "", "")
	}
	return renderArray(v, symbols, nl, v.indent, v.closeIndent)
}

// renderArray writes symbols as a TOML array. Without a layout to follow
// (v nil) it is one line when short enough, else one symbol a line; with
// v, each symbol that was in v keeps how it was written and its comments.
func renderArray(v *watchValue, symbols []string, nl, indent, closeIndent string) string {
	if v == nil {
		quoted := make([]string, len(symbols))
		for i, s := range symbols {
			quoted[i] = tomlString(s)
		}
		if one := "[" + strings.Join(quoted, ", ") + "]"; len(one) <= maxArrayLine || len(symbols) == 0 {
			return one
		}
		v = &watchValue{}
	}
	var items map[string]arrayItem
	for _, it := range v.items {
		if sym := it.symbol(); sym != "" {
			if items == nil {
				items = make(map[string]arrayItem, len(v.items))
			}
			if _, dup := items[sym]; !dup {
				items[sym] = it
			}
		}
	}
	var b strings.Builder
	b.WriteString("[")
	if v.open != "" {
		b.WriteString(" " + v.open)
	}
	b.WriteString(nl)
	for _, s := range symbols {
		it, had := items[s]
		if !had {
			it = arrayItem{text: tomlString(s)}
		}
		for _, c := range it.above {
			b.WriteString(indent + c + nl)
		}
		b.WriteString(indent + it.text + ",")
		if it.after != "" {
			b.WriteString(" " + it.after)
		}
		b.WriteString(nl)
	}
	for _, c := range v.tail {
		b.WriteString(indent + c + nl)
	}
	b.WriteString(closeIndent + "]")
	return b.String()
}

// maxArrayLine is the longest watchlist chainwatch writes on one line.
const maxArrayLine = 88
