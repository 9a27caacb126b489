package uv

import (
	"bytes"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// TestPatchedPathsWriteWhatUpstreamWrites holds chainwatch's fourth and
// fifth patches (hashes kept between frames; a pen already in a cell's
// style and each glyph's width answer taken without working them out again)
// to upstream's behaviour: two renderers are given the same frames, one
// taking upstream's paths, and must write the same bytes, frame by frame,
// in each colour profile. The frames scroll regions up and down (what the
// scroll optimisation acts on), change a few cells, erase, change height
// and change the width method, as a moving ladder does, each buffer kept
// across frames as bubbletea keeps its own; their cells mix ASCII with
// rules, arrows and bars, and colours of every type a styled string is read
// into, two of them palette indices that name one colour.
func TestPatchedPathsWriteWhatUpstreamWrites(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI} {
		t.Run(p.String(), func(t *testing.T) { renderBoth(t, p) })
	}
}

func renderBoth(t *testing.T, profile colorprofile.Profile) {
	const w, h, frames = 24, 16, 400
	rnd := rand.New(rand.NewPCG(7, 11))
	var outA, outB bytes.Buffer
	a := NewTerminalRenderer(&outA, []string{"TERM=xterm-256color"})
	b := NewTerminalRenderer(&outB, []string{"TERM=xterm-256color"})
	b.upstream = true
	for _, r := range []*TerminalRenderer{a, b} {
		r.SetFullscreen(true)
		r.SetScrollOptim(true)
		r.SetColorProfile(profile)
		r.Resize(w, h)
	}
	bufA, bufB := NewRenderBuffer(w, h), NewRenderBuffer(w, h)
	rows := make([][]Cell, h)
	for y := range rows {
		rows[y] = randomRow(rnd, w)
	}
	height := h
	for f := range frames {
		switch k := rnd.IntN(10); {
		case k < 3: // a region scrolls up: rows leave at its top, new ones come in at its bottom
			top, n := rnd.IntN(height/2), 1+rnd.IntN(3)
			copy(rows[top:height], rows[top+n:height])
			for y := height - n; y < height; y++ {
				rows[y] = randomRow(rnd, w)
			}
		case k < 5: // a region scrolls down
			top, n := rnd.IntN(height/2), 1+rnd.IntN(3)
			copy(rows[top+n:height], rows[top:height-n])
			for y := top; y < top+n; y++ {
				rows[y] = randomRow(rnd, w)
			}
		case k < 8: // a few quotes change
			for range 1 + rnd.IntN(3) {
				y := rnd.IntN(height)
				r := append([]Cell(nil), rows[y]...)
				r[rnd.IntN(w)] = randomCell(rnd)
				rows[y] = r
			}
		case k == 8 && f%7 == 0: // the window changes height
			height = h - rnd.IntN(4)
			for _, r := range []*TerminalRenderer{a, b} {
				r.Resize(w, height)
			}
			bufA.Resize(w, height)
			bufB.Resize(w, height)
		}
		if f == frames/2 { // the terminal turns out to measure by grapheme
			a.SetWidthMethod(ansi.GraphemeWidth)
			b.SetWidthMethod(ansi.GraphemeWidth)
		}
		if rnd.IntN(25) == 0 { // the whole screen is drawn again, along with what changed
			a.Erase()
			b.Erase()
		}
		for _, buf := range []*RenderBuffer{bufA, bufB} {
			for y := range height {
				for x := range w {
					buf.SetCell(x, y, &rows[y][x])
				}
			}
		}
		a.Render(bufA)
		b.Render(bufB)
		if err := a.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
		if outA.String() != outB.String() {
			t.Fatalf("frame %d: the patched paths wrote %q, upstream's %q", f, outA.String(), outB.String())
		}
		outA.Reset()
		outB.Reset()
	}
}

// cellGlyphs and cellColours are what the rows are made of: a few of each,
// so that rows repeat now and then and the hash table meets equal lines, as
// a blank-padded screen does, and runs of one style are common.
var (
	cellGlyphs  = []string{"a", "b", " ", "7", "│", "─", "▲", "█", "é", "❤\ufe0f"}
	cellColours = []color.Color{nil, color.RGBA{R: 0x5f, G: 0xd7, B: 0x87, A: 0xff}, color.RGBA{R: 0xd7, G: 0x5f, B: 0x5f, A: 0xff},
		ansi.BasicColor(1), ansi.BasicColor(0), ansi.ExtendedColor(16), ansi.ExtendedColor(203)}
)

func randomRow(rnd *rand.Rand, w int) []Cell {
	r := make([]Cell, w)
	c := randomCell(rnd)
	for x := range r {
		if rnd.IntN(4) == 0 {
			c = randomCell(rnd)
		}
		r[x] = c
	}
	return r
}

func randomCell(rnd *rand.Rand) Cell {
	c := Cell{Content: cellGlyphs[rnd.IntN(len(cellGlyphs))], Width: 1}
	c.Style.Fg = cellColours[rnd.IntN(len(cellColours))]
	if rnd.IntN(3) == 0 {
		c.Style.Bg = cellColours[rnd.IntN(len(cellColours))]
	}
	if rnd.IntN(5) == 0 {
		c.Style.Attrs = AttrBold
	}
	return c
}

// TestColourEqualityIsRGBAEquality holds colorEqual's typed comparisons to
// upstream's rule: two colours are equal when their RGBA() are, whatever
// their types (palette index 0 and 16 are both black).
func TestColourEqualityIsRGBAEquality(t *testing.T) {
	colours := append([]color.Color{color.CMYK{C: 0, M: 0, Y: 0, K: 255}, color.Transparent,
		color.RGBA{A: 0xff}, ansi.IndexedColor(16), ansi.BasicColor(9)}, cellColours...)
	for i := range 256 {
		colours = append(colours, ansi.ExtendedColor(i))
	}
	for i := range 16 {
		colours = append(colours, ansi.BasicColor(i))
	}
	for _, c := range colours {
		for _, o := range colours {
			want := c == nil && o == nil
			if c != nil && o != nil {
				cr, cg, cb, ca := c.RGBA()
				or, og, ob, oa := o.RGBA()
				want = cr == or && cg == og && cb == ob && ca == oa
			}
			if got := colorEqual(c, o); got != want {
				t.Errorf("colorEqual(%#v, %#v) = %v, RGBA() says %v", c, o, got, want)
			}
		}
	}
}
