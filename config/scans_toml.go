package config

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"chainwatch/api"
)

// This file finds and writes [[scan]] blocks in the config file's text.
// It reads just enough TOML to tell a table header from a line inside a
// multi-line string or array; whatever it gets wrong on an odd file is
// caught when the edited file is read back (scans_file.go), so a mistake
// here can refuse a save but never damage the file.

// scanBlock is where one [[scan]] is written, as byte offsets: start is
// its header line; end follows the line of its last key/value or
// [[scan.field]] header. Comments and blank lines after that belong to
// what follows (a note above the next table, a closing remark), so an
// edit of the block never takes them with it.
type scanBlock struct{ start, end int }

// header is a table header line: whether it is an array of tables
// ([[...]]), and its key with quotes and spaces removed.
type header struct {
	array bool
	key   string
}

// tomlLine is one line of the file: its offset, where the next line
// starts, and whether it continues a multi-line string or array of the
// lines above (then it is part of a value: never a header or a comment).
type tomlLine struct {
	at, next int
	text     string
	cont     bool
}

// header reads the line as a table header.
func (l tomlLine) header() (header, bool) {
	t := strings.TrimLeft(l.text, " \t")
	if l.cont || !strings.HasPrefix(t, "[") {
		return header{}, false
	}
	return parseHeader(t)
}

// content tells whether the line says something to TOML: a key/value (or
// part of one), or a header; not a blank or comment-only line.
func (l tomlLine) content() bool {
	t := strings.TrimSpace(l.text)
	return l.cont || t != "" && !strings.HasPrefix(t, "#")
}

// tomlLines splits text into lines, following strings and brackets.
func tomlLines(text string) []tomlLine {
	var (
		lines []tomlLine
		ml    string // the delimiter of the multi-line string we are in
		depth int    // open [ and { of a value
	)
	for at := 0; at < len(text); {
		l := tomlLine{at: at, text: text[at:], next: len(text), cont: ml != "" || depth > 0}
		if n := strings.IndexByte(text[at:], '\n'); n >= 0 {
			l.text, l.next = text[at:at+n], at+n+1
		}
		lines = append(lines, l)
		// A line that starts with "[" outside a value is a header; its
		// brackets are not a value's.
		if l.cont || !strings.HasPrefix(strings.TrimLeft(l.text, " \t"), "[") {
			ml, depth = scanLine(l.text, ml, depth)
		}
		at = l.next
	}
	return lines
}

// findScanBlocks returns the blocks of the top-level [[scan]] headers, in
// file order, which is the order of File.Scans. A block runs to the
// next header that is not one of its [[scan.field]]s (or the end of the
// file) and ends after the last line of TOML before it.
func findScanBlocks(text string) []scanBlock { return findBlocks(text, "scan") }

// findBlocks is findScanBlocks for the [[name]] tables (alert, the positions
// file's [[position]]).
func findBlocks(text, name string) []scanBlock {
	lines := tomlLines(text)
	var blocks []scanBlock
	for i, l := range lines {
		if h, ok := l.header(); !ok || !h.array || h.key != name {
			continue
		}
		b := scanBlock{start: l.at, end: l.next}
		for _, next := range lines[i+1:] {
			if h, ok := next.header(); ok && (h.key == name || !strings.HasPrefix(h.key, name+".")) {
				break
			}
			if next.content() {
				b.end = next.next
			}
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// scanLine follows strings, comments and brackets through one line.
func scanLine(line, ml string, depth int) (string, int) {
	for i := 0; i < len(line); i++ {
		if ml != "" {
			if ml == `"""` && line[i] == '\\' {
				i++
				continue
			}
			if strings.HasPrefix(line[i:], ml) {
				i += len(ml) - 1
				ml = ""
			}
			continue
		}
		switch c := line[i]; c {
		case '#':
			return ml, depth
		case '"', '\'':
			if d := strings.Repeat(string(c), 3); strings.HasPrefix(line[i:], d) {
				ml, i = d, i+2
				continue
			}
			for i++; i < len(line) && line[i] != c; i++ {
				if c == '"' && line[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return ml, depth
}

// parseHeader reads "[key]" or "[[key]]" (with an optional comment).
func parseHeader(t string) (header, bool) {
	h := header{array: strings.HasPrefix(t, "[[")}
	open, closing := "[", "]"
	if h.array {
		open, closing = "[[", "]]"
	}
	end := strings.Index(t, closing)
	if end < 0 {
		return h, false
	}
	var parts []string
	for _, p := range strings.Split(t[len(open):end], ".") {
		parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	h.key = strings.Join(parts, ".")
	return h, true
}

// blankLinesAfter moves at (a line start) forward over whole blank lines.
func blankLinesAfter(text string, at int) int {
	for at < len(text) {
		next := len(text)
		if n := strings.IndexByte(text[at:], '\n'); n >= 0 {
			next = at + n + 1
		}
		if strings.TrimSpace(text[at:next]) != "" {
			break
		}
		at = next
	}
	return at
}

// blankLinesBefore moves at (a line start) back over whole blank lines.
func blankLinesBefore(text string, at int) int {
	for at > 0 {
		prev := strings.LastIndexByte(text[:at-1], '\n') + 1
		if strings.TrimSpace(text[prev:at]) != "" {
			break
		}
		at = prev
	}
	return at
}

// appendBlock is what to add at the end of text to append block: the
// line end text lacks, and a blank line before the block.
func appendBlock(text, block string) string {
	if text == "" {
		return block
	}
	nl := newline(text)
	var add string
	if !strings.HasSuffix(text, "\n") {
		add = nl
	}
	if !strings.HasSuffix(text+add, nl+nl) {
		add += nl
	}
	return add + block
}

// newline is the file's line ending, so an edit does not mix them.
func newline(text string) string {
	if strings.Contains(text, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// tableOf is s as the file stores it: only what differs from the
// defaults (sort none, include true) is written.
func tableOf(s SavedScan) ScanTable {
	sc := ScanTable{Name: strings.TrimSpace(s.Name), Description: strings.TrimSpace(s.Description), AllResults: s.AllResults}
	for _, f := range s.Fields {
		fc := FieldTable{Formula: f.Formula, DisplayName: f.DisplayName, Sort: strings.ToLower(string(f.Sort))}
		if !f.Included() {
			fc.IncludeInResultset = api.Ptr(false)
		}
		if fc.Sort == string(api.SortNone) {
			fc.Sort = ""
		}
		sc.Fields = append(sc.Fields, fc)
	}
	return sc
}

// renderScan writes sc as a [[scan]] block with its [[scan.field]]s.
func renderScan(sc ScanTable, nl string) string {
	var b strings.Builder
	line := func(indent, key, val string) { fmt.Fprintf(&b, "%s%s = %s%s", indent, key, val, nl) }
	b.WriteString("[[scan]]" + nl)
	line("", "name", tomlString(sc.Name))
	if sc.Description != "" {
		line("", "description", tomlString(sc.Description))
	}
	if sc.AllResults {
		line("", "all_results", "true")
	}
	for _, f := range sc.Fields {
		b.WriteString("  [[scan.field]]" + nl)
		line("  ", "formula", tomlString(f.Formula))
		if f.DisplayName != "" {
			line("  ", "display_name", tomlString(f.DisplayName))
		}
		if f.IncludeInResultset != nil {
			line("  ", "include_in_resultset", fmt.Sprint(*f.IncludeInResultset))
		}
		if f.Sort != "" {
			line("  ", "sort", tomlString(f.Sort))
		}
	}
	return b.String()
}

// tomlString is s as a TOML basic string. Go's %q is not one: its \x and
// \a escapes are not TOML's.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, string(utf8.RuneError)) {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
