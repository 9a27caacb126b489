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
// Columns that do not fit side by side wrap into a second band; a box
// taller than the frame loses its blank lines first, then the lines that
// do not fit (the last saying so), and always keeps its whole border.
// Disabled bindings are left out. Not a hot path: it is drawn only while
// open, with lipgloss.
func HelpOver(screen string, groups [][]key.Binding, width, height int, st *theme.Styles) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	box := strings.Split(helpBox(groups, width, height, st), "\n")
	if len(box) > height {
		box = box[:height] // fewer lines than a border takes
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
// width, the box at most height lines.
func helpBox(groups [][]key.Binding, width, height int, st *theme.Styles) string {
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
	room := height - st.Box.GetVerticalFrameSize() // the lines inside the border
	body := title + "\n\n" + strings.Join(bands, "\n\n")
	if lipgloss.Height(body) > room {
		body = title + "\n" + strings.Join(bands, "\n")
	}
	if lines := strings.Split(body, "\n"); len(lines) > room && room > 0 {
		w := lipgloss.Width(body)
		lines = lines[:room]
		lines[room-1] = st.Help.Width(w).Render(ansi.Truncate("… more than fits: a taller terminal shows every key", w, "…"))
		body = strings.Join(lines, "\n")
	}
	return st.Box.Render(body)
}
