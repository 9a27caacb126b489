package cmd

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/scan"
	"chainwatch/text"
)

// printScanList shows what --name accepts: the config file's scans, then
// the presets, each with its fields as they would be sent.
func printScanList(w io.Writer, path string, saved []scan.Scan) error {
	var b strings.Builder
	if len(saved) == 0 {
		where := "no config file"
		if path != "" {
			where = path
		}
		fmt.Fprintf(&b, "Saved scans: none (%s); save one from the watch screen's scanner.\n", where)
	} else {
		fmt.Fprintf(&b, "Saved scans (%s):\n", path)
		listScans(&b, saved)
	}
	b.WriteString("\nPresets:\n")
	listScans(&b, scan.Presets())
	b.WriteString("\nRun one with chainwatch scan --name NAME; --formula adds fields to it.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// maxListFormula is the widest formula the notes after it are aligned
// past; a longer one is followed by its notes directly.
const maxListFormula = 40

// listScans writes each scan's name, description and numbered fields:
//
//	High IV
//	  Implied volatility above 40
//	  1  iv30 >= 40  (not shown)
//	  2  iv30        (as IV30, sort desc)
//
// A field is its formula with its options in parentheses after it, not a
// --formula argument: options such as a display name have no flag, so a
// line that looked like a command could not be run as one. The numbers
// are those of the error messages ("formula 2 ..."). Every text is passed
// through text.Clean, since a hand-edited file's formula or display name
// may hold anything.
func listScans(b *strings.Builder, scans []scan.Scan) {
	for _, s := range scans {
		fmt.Fprintf(b, "\n  %s", text.Clean(s.Name))
		if s.AllResults {
			b.WriteString("  [all results]")
		}
		b.WriteByte('\n')
		if s.Description != "" {
			fmt.Fprintf(b, "    %s\n", text.Clean(s.Description))
		}
		formulas := make([]string, len(s.Fields))
		width := 0
		for i, f := range s.Fields {
			formulas[i] = text.Clean(f.Formula)
			if w := ansi.StringWidth(formulas[i]); w <= maxListFormula {
				width = max(width, w)
			}
		}
		digits := len(strconv.Itoa(len(s.Fields)))
		for i, f := range s.Fields {
			fmt.Fprintf(b, "    %*d  %s", digits, i+1, formulas[i])
			if notes := fieldNotes(f); notes != "" {
				pad := max(width-ansi.StringWidth(formulas[i]), 0)
				fmt.Fprintf(b, "%s  (%s)", strings.Repeat(" ", pad), notes)
			}
			b.WriteByte('\n')
		}
	}
}

// fieldNotes are a field's options as words: its display name, whether
// it is left out of the rows, its sort.
func fieldNotes(f api.ScanFieldParam) string {
	var notes []string
	if name := text.Clean(f.DisplayName); name != "" {
		notes = append(notes, "as "+listWord(name))
	}
	if !f.Included() {
		notes = append(notes, "not shown")
	}
	if f.Sort == api.SortAsc || f.Sort == api.SortDesc {
		notes = append(notes, "sort "+string(f.Sort))
	}
	return strings.Join(notes, ", ")
}

// listWord is s as is when it is one word, else quoted, so a display name
// with a blank, comma or parenthesis reads as one name among the notes.
func listWord(s string) string {
	if strings.IndexFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '-' || r == '/' || r == '%')
	}) < 0 {
		return s
	}
	return strconv.Quote(s)
}
