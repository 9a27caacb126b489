package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/theme"
)

// HelpOver draws the help over screen (a whole frame, width x height;
// "" for a blank one), which stays visible around it: the trader keeps
// their place while reading the keys. The box has one column per group of
// bindings (keys in bold, what they do beside them), centred. The bindings
// come from the key map, so what the help says is what the keys do.
// Columns that do not fit side by side wrap into a second band, so the
// whole map fits 80x24; a box taller than the frame is cut at its foot.
// Disabled bindings are left out. Not a hot path: it is drawn only while
// open, with lipgloss.
func HelpOver(screen string, groups [][]key.Binding, width, height int, st *theme.Styles) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	box := strings.Split(helpBox(groups, width, st), "\n")
	if len(box) > height {
		box = box[:height]
	}
	lines := paneBlock(screen, width, height)
	bw := ansi.StringWidth(box[0])
	x, y := max((width-bw)/2, 0), max((height-len(box))/2, 0)
	for i, b := range box {
		ln := lines[y+i]
		lines[y+i] = ansi.Truncate(ln, x, "") + b + ansi.TruncateLeft(ln, x+bw, "")
	}
	return strings.Join(lines, "\n")
}

// helpBox is the help's box: the bindings in columns, in bands that fit
// width.
func helpBox(groups [][]key.Binding, width int, st *theme.Styles) string {
	keyStyle := st.Value.Bold(true)
	var cols []string
	for _, g := range groups {
		kw, dw := 0, 0
		var ks, ds []string
		for _, b := range g {
			if !b.Enabled() {
				continue
			}
			h := b.Help()
			if h.Key == "" && h.Desc == "" {
				continue
			}
			ks = append(ks, h.Key)
			ds = append(ds, h.Desc)
			kw = max(kw, lipgloss.Width(h.Key))
			dw = max(dw, lipgloss.Width(h.Desc))
		}
		if len(ks) == 0 {
			continue
		}
		var b strings.Builder
		for i := range ks {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(keyStyle.Width(kw).Render(ks[i]))
			b.WriteString("  ")
			b.WriteString(st.Help.Width(dw).Render(ds[i]))
		}
		cols = append(cols, b.String())
	}

	// Bands of columns that fit inside the box (border and padding: 4).
	inner := max(width-4, 1)
	const gap = "    "
	var bands []string
	var band []string
	bandW := 0
	flush := func() {
		if len(band) > 0 {
			bands = append(bands, lipgloss.JoinHorizontal(lipgloss.Top, band...))
			band, bandW = nil, 0
		}
	}
	for _, c := range cols {
		w := lipgloss.Width(c)
		if len(band) > 0 && bandW+len(gap)+w > inner {
			flush()
		}
		if len(band) > 0 {
			band = append(band, gap)
			bandW += len(gap)
		}
		band = append(band, c)
		bandW += w
	}
	flush()
	title := st.Title.Render("chainwatch · keys")
	body := title + "\n\n" + strings.Join(bands, "\n\n")
	return st.Box.Render(body)
}
