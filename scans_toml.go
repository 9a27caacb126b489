package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"chainwatch/api"
	"chainwatch/model"
)

// This file finds and writes [[scan]] blocks in the config file's text.
// It reads just enough TOML to tell a table header from a line inside a
// multi-line string or array; whatever it gets wrong on an odd file is
// caught when the edited file is read back (scans_file.go), so a mistake
// here can refuse a save but never damage the file.

// scanBlock is where one [[scan]] is written, as byte offsets: start is
// its header line; contentEnd follows its last non-blank line; end is
// where the next table's header (or the comment lines attached above it)
// begins, so end-contentEnd is the blank lines between them.
type scanBlock struct{ start, contentEnd, end int }

// header is a table header line: its offset, whether it is an array of
// tables ([[...]]), and its key with quotes and spaces removed.
type header struct {
	at    int
	array bool
	key   string
}

// findScanBlocks returns the blocks of the top-level [[scan]] headers, in
// file order, which is the order of fileConfig.Scans.
func findScanBlocks(text string) []scanBlock {
	heads := findHeaders(text)
	var blocks []scanBlock
	for i, h := range heads {
		if !h.array || h.key != "scan" {
			continue
		}
		end := len(text)
		for _, next := range heads[i+1:] {
			if next.key == "scan" || !strings.HasPrefix(next.key, "scan.") {
				end = attachedComments(text, next.at)
				break
			}
		}
		blocks = append(blocks, scanBlock{start: h.at, contentEnd: trimBlankLines(text, h.at, end), end: end})
	}
	return blocks
}

// findHeaders lists the table headers outside strings and array values.
func findHeaders(text string) []header {
	var (
		heads []header
		ml    string // the delimiter of the multi-line string we are in
		depth int    // open [ and { of a value
	)
	for at := 0; at < len(text); {
		n := strings.IndexByte(text[at:], '\n')
		line := text[at:]
		next := len(text)
		if n >= 0 {
			line, next = text[at:at+n], at+n+1
		}
		if ml == "" && depth == 0 {
			if t := strings.TrimLeft(line, " \t"); strings.HasPrefix(t, "[") {
				if h, ok := parseHeader(t); ok {
					h.at = at
					heads = append(heads, h)
				}
				at = next
				continue
			}
		}
		ml, depth = scanLine(line, ml, depth)
		at = next
	}
	return heads
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

// attachedComments moves back from a header over the comment lines right
// above it (no blank line between): they describe that table, not the
// scan before it.
func attachedComments(text string, at int) int {
	for at > 0 {
		prev := strings.LastIndexByte(text[:at-1], '\n') + 1
		if t := strings.TrimSpace(text[prev:at]); !strings.HasPrefix(t, "#") {
			break
		}
		at = prev
	}
	return at
}

// trimBlankLines moves end back over whole blank lines, not before start.
func trimBlankLines(text string, start, end int) int {
	for end > start {
		prev := strings.LastIndexByte(text[start:end-1], '\n')
		lineStart := start
		if prev >= 0 {
			lineStart = start + prev + 1
		}
		if strings.TrimSpace(text[lineStart:end]) != "" {
			break
		}
		end = lineStart
	}
	return end
}

// appendBlock adds a block at the end of text, after a blank line.
func appendBlock(text, block string) string {
	if text == "" {
		return block
	}
	nl := newline(text)
	if !strings.HasSuffix(text, "\n") {
		text += nl
	}
	if !strings.HasSuffix(text, nl+nl) {
		text += nl
	}
	return text + block
}

// newline is the file's line ending, so an edit does not mix them.
func newline(text string) string {
	if strings.Contains(text, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// scanToConfig is s as the file stores it: only what differs from the
// defaults (sort none, include true) is written.
func scanToConfig(s model.Scan) scanConfig {
	sc := scanConfig{Name: strings.TrimSpace(s.Name), Description: strings.TrimSpace(s.Description), AllResults: s.AllResults}
	for _, f := range s.Fields {
		fc := scanFieldConfig{Formula: f.Formula, DisplayName: f.DisplayName, Sort: strings.ToLower(string(f.Sort))}
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
func renderScan(sc scanConfig, nl string) string {
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
