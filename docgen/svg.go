package main

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

// The picture is the watch screen's golden frame: TestGoldenWatchScreen
// (model/app_golden_test.go) holds the App's real frame at 160x48, on the
// test clock over the sandbox's shape of data, to that file, so the
// picture is the program's own screen and goes stale when the screen
// changes.
const (
	goldenFrame      = "model/testdata/TestGoldenWatchScreen/160x48.golden"
	pictureFile      = "docs/watch-screen.svg"
	frameW, frameH   = 160, 48
	cellW, cellH     = 8, 16 // a 13 px monospace cell, in whole pixels
	fontSize         = 13
	defaultFg        = "#d0d0d0" // the terminal's own colours, for cells
	defaultBg        = "#1c1c1c" // that set none (the dark theme's ground)
	pictureFontNames = `ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace`
)

// screenPicture reads the golden frame under root and draws it as SVG.
func screenPicture(root string) ([]byte, error) {
	frame, err := os.ReadFile(filepath.Join(root, goldenFrame))
	if err != nil {
		return nil, err
	}
	return frameSVG(frame, frameW, frameH)
}

// frameSVG plays a frame (text with its escape sequences, lines apart by
// newlines) into a terminal emulator of w x h cells and draws what the
// terminal holds: a rectangle per run of one background, a text element
// per run of one style, each placed on its cell so widths never drift.
func frameSVG(frame []byte, w, h int) ([]byte, error) {
	term := vt.NewEmulator(w, h)
	if _, err := term.Write(bytes.ReplaceAll(frame, []byte("\n"), []byte("\r\n"))); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n",
		w*cellW, h*cellH, w*cellW, h*cellH)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="%s"/>`+"\n", defaultBg)
	fmt.Fprintf(&b, `<g font-family='%s' font-size="%d" xml:space="preserve">`+"\n", pictureFontNames, fontSize)
	for y := range h {
		line := runs(term, y, w)
		for i := 0; i < len(line); {
			// One rectangle for the cells of one background, whatever
			// their text's look.
			j, cells := i, 0
			for ; j < len(line) && line[j].bg == line[i].bg; j++ {
				cells += line[j].cells
			}
			if line[i].bg != defaultBg {
				fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n",
					line[i].x*cellW, y*cellH, cells*cellW, cellH, line[i].bg)
			}
			i = j
		}
		for _, r := range line {
			if strings.TrimSpace(r.text) == "" {
				continue
			}
			fmt.Fprintf(&b, `<text x="%d" y="%d" textLength="%d" lengthAdjust="spacingAndGlyphs" fill="%s"%s>%s</text>`+"\n",
				r.x*cellW, y*cellH+cellH*3/4, r.cells*cellW, r.fg, r.attrs, escapeXML(r.text))
		}
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes(), nil
}

// run is a stretch of cells of one line that share a look.
type run struct {
	x, cells      int
	text          string
	fg, bg, attrs string
}

// runs cuts line y into runs of one foreground, background and attributes.
func runs(term *vt.Emulator, y, w int) []run {
	var out []run
	for x := 0; x < w; {
		c := term.CellAt(x, y)
		width, content := 1, " "
		var st uv.Style
		if c != nil {
			st = c.Style
			if c.Width > 0 {
				width = c.Width
			}
			if c.Content != "" {
				content = c.Content
			}
		}
		fg, bg, attrs := look(st)
		if n := len(out); n > 0 && out[n-1].fg == fg && out[n-1].bg == bg && out[n-1].attrs == attrs {
			out[n-1].text += content
			out[n-1].cells += width
		} else {
			out = append(out, run{x: x, cells: width, text: content, fg: fg, bg: bg, attrs: attrs})
		}
		x += width
	}
	return out
}

// look is a style's colours as SVG fills and its attributes as SVG ones.
func look(st uv.Style) (fg, bg, attrs string) {
	fg, bg = hex(st.Fg, defaultFg), hex(st.Bg, defaultBg)
	if st.Attrs&uv.AttrReverse != 0 {
		fg, bg = bg, fg
	}
	if st.Attrs&uv.AttrBold != 0 {
		attrs += ` font-weight="bold"`
	}
	if st.Attrs&uv.AttrFaint != 0 {
		attrs += ` fill-opacity="0.6"`
	}
	if st.Attrs&uv.AttrItalic != 0 {
		attrs += ` font-style="italic"`
	}
	switch {
	case st.Attrs&uv.AttrStrikethrough != 0:
		attrs += ` text-decoration="line-through"`
	case st.Underline != 0:
		attrs += ` text-decoration="underline"`
	}
	return fg, bg, attrs
}

// hex is a colour as #rrggbb; nil (the terminal's own) is def.
func hex(c color.Color, def string) string {
	if c == nil {
		return def
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// escapeXML makes a run's text safe inside an element.
func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
