package uv

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestIncrementalHashesMatchRehashingAll holds chainwatch's fourth patch
// (updateHashmap hashes only the lines touched since the last hashed
// frame) to upstream's behaviour: two renderers are given the same frames,
// one rehashing every line each frame as upstream did, and must write the
// same bytes. The frames scroll regions up and down (what the scroll
// optimisation acts on), change a few lines, repeat themselves, erase and
// resize, as a moving ladder does, each buffer kept across frames as
// bubbletea keeps its own.
func TestIncrementalHashesMatchRehashingAll(t *testing.T) {
	const w, h, frames = 24, 16, 400
	rnd := rand.New(rand.NewPCG(7, 11))
	var outA, outB bytes.Buffer
	a := NewTerminalRenderer(&outA, []string{"TERM=xterm-256color"})
	b := NewTerminalRenderer(&outB, []string{"TERM=xterm-256color"})
	b.rehashAll = true
	for _, r := range []*TerminalRenderer{a, b} {
		r.SetFullscreen(true)
		r.SetScrollOptim(true)
		r.Resize(w, h)
	}
	bufA, bufB := NewRenderBuffer(w, h), NewRenderBuffer(w, h)
	rows := make([]string, h)
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
				y, x := rnd.IntN(height), rnd.IntN(w)
				r := []byte(rows[y])
				r[x] = byte('0' + rnd.IntN(10))
				rows[y] = string(r)
			}
		case k == 8 && f%7 == 0: // the window changes height
			height = h - rnd.IntN(4)
			for _, r := range []*TerminalRenderer{a, b} {
				r.Resize(w, height)
			}
			bufA.Resize(w, height)
			bufB.Resize(w, height)
		}
		if rnd.IntN(25) == 0 { // the whole screen is drawn again, along with what changed
			a.Erase()
			b.Erase()
		}
		for _, buf := range []*RenderBuffer{bufA, bufB} {
			for y := range height {
				for x := range w {
					buf.SetCell(x, y, &Cell{Content: rows[y][x : x+1], Width: 1})
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
			t.Fatalf("frame %d: incremental hashing wrote %q, rehashing all %q", f, outA.String(), outB.String())
		}
		outA.Reset()
		outB.Reset()
	}
}

// randomRow is a row from a small alphabet, so that rows repeat now and
// then and the hash table meets equal lines, as a blank-padded screen does.
func randomRow(rnd *rand.Rand, w int) string {
	r := make([]byte, w)
	c := byte('a' + rnd.IntN(4))
	for x := range r {
		if rnd.IntN(4) == 0 {
			c = byte('a' + rnd.IntN(4))
		}
		r[x] = c
	}
	return string(r)
}
