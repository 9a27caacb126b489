package main

import (
	"fmt"
	"io"
	"strings"

	"chainwatch/api"
	"chainwatch/model"
)

// printScanList shows what --name accepts: the config file's scans, then
// the presets, each with its fields as they would be sent.
func printScanList(w io.Writer, path string, saved []model.Scan) error {
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
	listScans(&b, model.Presets())
	_, err := io.WriteString(w, b.String())
	return err
}

func listScans(b *strings.Builder, scans []model.Scan) {
	for _, s := range scans {
		fmt.Fprintf(b, "\n  %s", s.Name)
		if s.AllResults {
			b.WriteString("  [all results]")
		}
		b.WriteByte('\n')
		if s.Description != "" {
			fmt.Fprintf(b, "    %s\n", s.Description)
		}
		for _, f := range s.Fields {
			fmt.Fprintf(b, "      --formula %s", shellQuote(f.Formula))
			if f.DisplayName != "" {
				fmt.Fprintf(b, "  as %q", f.DisplayName)
			}
			if !f.Included() {
				b.WriteString("  (filter, not shown)")
			}
			if f.Sort == api.SortAsc || f.Sort == api.SortDesc {
				fmt.Fprintf(b, "  sort %s", f.Sort)
			}
			b.WriteByte('\n')
		}
	}
}

// shellQuote quotes a formula the way it would be typed after --formula.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
