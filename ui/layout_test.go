package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var pxVisibility = [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}}

// The rects tile the frame: inside it, never overlapping, and every cell
// not in a rect is a one-cell gap between two panes on its line (where
// Compose draws "│").
func TestNewLayoutTilesTheFrame(t *testing.T) {
	for _, sz := range pxSizes {
		w, h := sz[0], sz[1]
		for _, vis := range pxVisibility {
			l := NewLayout(w, h, vis[0], vis[1])
			rects := map[string]Rect{"header": l.Header, "tabs": l.Tabs, "strip": l.Strip, "ladder": l.Ladder, "details": l.Details, "tape": l.Tape, "calendar": l.Calendar, "status": l.Status}
			owner := make([][]string, h)
			for y := range owner {
				owner[y] = make([]string, w)
			}
			for name, r := range rects {
				if r.Empty() {
					continue
				}
				if r.X < 0 || r.Y < 0 || r.X+r.W > w || r.Y+r.H > h {
					t.Fatalf("%dx%d %v: %s %+v outside the frame", w, h, vis, name, r)
				}
				for y := r.Y; y < r.Y+r.H; y++ {
					for x := r.X; x < r.X+r.W; x++ {
						if owner[y][x] != "" {
							t.Fatalf("%dx%d %v: %s overlaps %s at %d,%d", w, h, vis, name, owner[y][x], x, y)
						}
						owner[y][x] = name
					}
				}
			}
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					if owner[y][x] != "" {
						continue
					}
					if x == 0 || x == w-1 || owner[y][x-1] == "" || owner[y][x+1] == "" {
						t.Fatalf("%dx%d %v: cell %d,%d is neither a pane nor a border", w, h, vis, x, y)
					}
				}
			}
			if l.Wide != (w >= 120) {
				t.Errorf("%dx%d: Wide = %v", w, h, l.Wide)
			}
			if l.Tape.Empty() == vis[0] || l.Calendar.Empty() == vis[1] {
				t.Errorf("%dx%d %v: tape %+v calendar %+v do not follow visibility", w, h, vis, l.Tape, l.Calendar)
			}
			if l.Header.H != 2 || l.Tabs.H != 1 || l.Status.H != 1 || l.Status.Y != h-1 {
				t.Errorf("%dx%d: header %+v tabs %+v status %+v", w, h, l.Header, l.Tabs, l.Status)
			}
		}
	}
}

func TestNewLayoutShapes(t *testing.T) {
	l := NewLayout(160, 48, true, true)
	rw := 160 * 38 / 100
	if l.Details.W != rw || l.Tape.W != rw || l.Calendar.W != rw || l.Ladder.W != 160-rw-1 {
		t.Errorf("wide column: %+v", l)
	}
	if l.Details.H != 8 || l.Calendar.H != 9 || l.Ladder.H != 48-5 {
		t.Errorf("wide heights: %+v", l)
	}
	if l.Calendar.Y != l.Tape.Y+l.Tape.H || l.Calendar.Y+l.Calendar.H != 47 {
		t.Errorf("calendar is not at the bottom under the tape: %+v", l)
	}
	if w := NewLayout(300, 60, true, true).Details.W; w != 72 {
		t.Errorf("right column not clamped to 72: %d", w)
	}
	if w := NewLayout(120, 40, true, true).Details.W; w != 52 {
		t.Errorf("right column not clamped to 52: %d", w)
	}
	// Hidden tape: the calendar takes its place; hidden calendar: the tape.
	if c := NewLayout(160, 48, false, true).Calendar; c.Y != 4+8 || c.H != 43-8 {
		t.Errorf("calendar does not grow into the tape's place: %+v", c)
	}
	if tp := NewLayout(160, 48, true, false).Tape; tp.H != 43-8 {
		t.Errorf("tape does not grow into the calendar's place: %+v", tp)
	}

	n := NewLayout(80, 24, true, true)
	if n.Wide || n.Ladder.W != 80 || n.Details.H != 2 || n.Details.Y != n.Ladder.Y+n.Ladder.H {
		t.Errorf("narrow ladder and details: %+v", n)
	}
	if n.Calendar.W != 34 || n.Tape.W != 80-34-1 || n.Tape.H < 7 || n.Tape.H != n.Calendar.H {
		t.Errorf("narrow strip: %+v", n)
	}
	if n.Ladder.H < 8 {
		t.Errorf("ladder too short at 80x24: %+v", n.Ladder)
	}
	if one := NewLayout(80, 24, true, false); one.Tape.W != 80 {
		t.Errorf("tape alone should be full width: %+v", one.Tape)
	}
	if none := NewLayout(80, 24, false, false); none.Ladder.H != 19-2 {
		t.Errorf("with neither, the ladder takes the strip: %+v", none.Ladder)
	}
}

func TestTooSmall(t *testing.T) {
	for _, c := range []struct {
		w, h  int
		small bool
	}{{80, 24, false}, {79, 24, true}, {80, 23, true}, {200, 60, false}, {0, 0, true}} {
		if got := TooSmall(c.w, c.h); got != c.small {
			t.Errorf("TooSmall(%d, %d) = %v", c.w, c.h, got)
		}
	}
	for _, sz := range [][2]int{{79, 23}, {60, 20}, {30, 5}, {10, 3}} {
		out := TooSmallMessage(sz[0], sz[1], pxColor)
		pxCheck(t, "too small", strings.Split(out, "\n"), sz[0], sz[1])
	}
	plain := ansi.Strip(TooSmallMessage(70, 20, pxColor))
	if !strings.Contains(plain, "chainwatch needs at least 80x24 (now 70x20)") {
		t.Fatalf("message: %q", plain)
	}
	// Centred: the message is on a middle line, not the first.
	lines := strings.Split(plain, "\n")
	if strings.Contains(lines[0], "chainwatch") || !strings.Contains(strings.Join(lines[7:12], ""), "chainwatch") {
		t.Errorf("message not centred vertically:\n%s", plain)
	}
}

func TestComposeExactFrame(t *testing.T) {
	for _, sz := range pxSizes {
		for _, vis := range pxVisibility {
			l := NewLayout(sz[0], sz[1], vis[0], vis[1])
			out := Compose(sz[0], sz[1], pxPanes(l, pxColor), pxColor)
			lines := strings.Split(out, "\n")
			pxCheck(t, "frame", lines, sz[0], sz[1])
			plain := strings.Split(ansi.Strip(out), "\n")
			if l.Wide && l.Ladder.W < sz[0] { // with tape and calendar hidden the ladder is the whole width
				x := l.Ladder.W
				for y := l.Ladder.Y; y < l.Ladder.Y+l.Ladder.H; y++ {
					if r := []rune(plain[y]); string(r[x]) != "│" || string(r[x-1]) != "L" {
						t.Fatalf("%v: no border between ladder and column on line %d: %q", sz, y, plain[y])
					}
				}
			}
			if !strings.HasPrefix(plain[0], "HHH") || !strings.HasPrefix(plain[len(plain)-1], "===") {
				t.Fatalf("%v: header or status missing", sz)
			}
		}
	}
}

func TestComposeGapsAndShortPanes(t *testing.T) {
	// Two panes stacked with a line between and a pane short of lines.
	panes := []Pane{
		{Rect{0, 0, 10, 2}, []string{"aaaaaaaaaa", "aaaaaaaaaa"}},
		{Rect{0, 3, 10, 2}, []string{"bbbbbbbbbb"}},
		{Rect{11, 0, 4, 5}, []string{"cccc", "cccc", "cccc", "cccc", "cccc"}},
	}
	out := Compose(16, 6, panes, pxNoColor)
	want := strings.Join([]string{
		"aaaaaaaaaa│cccc ",
		"aaaaaaaaaa│cccc ",
		"──────────┤cccc ",
		"bbbbbbbbbb│cccc ",
		"          │cccc ",
		"                ",
	}, "\n")
	if got := ansi.Strip(out); got != want {
		t.Fatalf("compose:\n%s\nwant:\n%s", got, want)
	}
	if Compose(0, 10, panes, pxNoColor) != "" || Compose(10, 0, panes, pxNoColor) != "" {
		t.Fatal("an empty frame is empty")
	}
}

func TestComposeBorderStyled(t *testing.T) {
	l := NewLayout(160, 48, true, true)
	out := Compose(160, 48, pxPanes(l, pxColor), pxColor)
	want := pxColor.Border.Render("│")
	if !strings.Contains(out, want) {
		t.Fatalf("the border is not drawn in the Border style (%q)", want)
	}
}

// TestLayoutHiddenPanesGiveTheLadderTheirWidth: with tape and calendar
// hidden the ladder spans the frame and the details sit beneath it.
func TestLayoutHiddenPanesGiveTheLadderTheirWidth(t *testing.T) {
	l := NewLayout(120, 40, false, false)
	if l.Ladder.W != 120 || l.Details.W != 120 || l.Details.Y != l.Ladder.Y+l.Ladder.H || l.Tape.W != 0 || l.Calendar.W != 0 {
		t.Fatalf("layout %+v", l)
	}
}

// TestLayoutBannerLeavesTheLadderItsStrikes: on 80x24 the first-run
// banner goes over the strip below the ladder, never leaving the ladder
// fewer strikes than it had or than MinLadderStrikes; hiding the tape
// alone (t) gives the ladder MinLadderStrikes strikes; on a tall or wide
// frame the banner sits on the ladder as before.
func TestLayoutBannerLeavesTheLadderItsStrikes(t *testing.T) {
	const banner = 5 // title, three lines of text, how to dismiss it
	for _, vis := range [][2]bool{{true, true}, {false, true}, {true, false}, {false, false}} {
		plain := NewLayout(80, 24, vis[0], vis[1])
		l := plain.WithBanner(banner)
		if l.Banner.H != banner || l.Banner.W != 80 {
			t.Errorf("tape %v calendar %v: banner %+v, want 80x%d", vis[0], vis[1], l.Banner, banner)
		}
		if got := LadderRows(l.Ladder.H); got < min(LadderRows(plain.Ladder.H), MinLadderStrikes) {
			t.Errorf("tape %v calendar %v: the banner leaves %d strikes of %d", vis[0], vis[1], got, LadderRows(plain.Ladder.H))
		}
		for _, r := range []Rect{l.Ladder, l.Tape, l.Calendar, l.Details} {
			if !r.Empty() && r.Y < l.Banner.Y+l.Banner.H && l.Banner.Y < r.Y+r.H {
				t.Errorf("tape %v calendar %v: %+v under the banner %+v", vis[0], vis[1], r, l.Banner)
			}
		}
	}
	if got := LadderRows(NewLayout(80, 24, false, true).Ladder.H); got < MinLadderStrikes {
		t.Errorf("t alone leaves the ladder %d strikes at 80x24, want %d", got, MinLadderStrikes)
	}
	wide := NewLayout(160, 48, true, true)
	if l := wide.WithBanner(banner); l.Banner != (Rect{0, wide.Ladder.Y, wide.Ladder.W, banner}) || l.Ladder.H != wide.Ladder.H-banner {
		t.Errorf("160x48: banner %+v, ladder %+v: want the banner on top of the ladder", l.Banner, l.Ladder)
	}
}
