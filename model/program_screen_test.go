package model

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// ttyTerm is a terminal emulator behind a terminal's line discipline:
// written by the program's renderer, read by the test.
type ttyTerm struct {
	mu sync.Mutex
	vt *vt.Emulator
}

// Write maps each newline to a carriage return and a newline, as a tty
// does on output (ONLCR): the renderer counts on it.
func (l *ttyTerm) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.vt.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// screen is the emulator's text, and its cells' styles row by row.
func (l *ttyTerm) screen() (string, [][]uv.Style) {
	l.mu.Lock()
	defer l.mu.Unlock()
	styles := make([][]uv.Style, l.vt.Height())
	for y := range styles {
		styles[y] = make([]uv.Style, l.vt.Width())
		for x := range styles[y] {
			styles[y][x] = seenStyle(l.vt.CellAt(x, y))
		}
	}
	return l.vt.String(), styles
}

// seenStyle is the part of a cell's style the eye sees: a blank's
// foreground colour shows nowhere (unless it is underlined or reversed),
// and the renderer may erase blanks without one.
func seenStyle(c *uv.Cell) uv.Style {
	if c == nil {
		return uv.Style{}
	}
	s := c.Style
	if strings.TrimSpace(c.Content) == "" && s.Underline == 0 && s.Attrs&uv.AttrReverse == 0 {
		s.Fg = nil
	}
	return s
}

// frameStyles is each cell's style in a frame, its colours as a terminal
// of the given profile shows them.
func frameStyles(frame string, w, h int, profile colorprofile.Profile) [][]uv.Style {
	buf := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(frame).Draw(buf, buf.Bounds())
	styles := make([][]uv.Style, h)
	for y := range styles {
		styles[y] = make([]uv.Style, w)
		for x := range styles[y] {
			s := seenStyle(buf.CellAt(x, y))
			for _, col := range []*color.Color{&s.Fg, &s.Bg, &s.UnderlineColor} {
				if *col != nil {
					*col = profile.Convert(*col)
				}
			}
			styles[y][x] = s
		}
	}
	return styles
}

// drainAnswers reads what the emulator answers the program's queries (it
// writes them to a pipe, and would block with nobody reading) until the
// test ends, then closes it. The reader closes it itself: the emulator's
// Read and Close share a flag without a lock, so they must not run at
// once. A cursor-position query wakes the reader at the end; the
// cleanup runs after the program's own (cleanups run last first), when
// nothing else writes.
func drainAnswers(t *testing.T, term *ttyTerm) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 256)
		for {
			if _, err := term.vt.Read(buf); err != nil {
				return
			}
			select {
			case <-stop:
				_ = term.vt.Close()
				return
			default:
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		_, _ = term.Write([]byte(ansi.RequestCursorPositionReport))
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the emulator's reader did not stop")
		}
	})
}

// plainLines is a frame's text without styles, each line without its
// trailing blanks.
func plainLines(s string) []string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// TestTerminalShowsTheFrame: what the renderer writes while the market
// moves (each refresh drawn as its differences from the screen before),
// and as the trader goes from page to page, leaves a terminal showing
// exactly the App's frame, text and colours, in a 256-colour and a
// true-colour terminal.
func TestTerminalShowsTheFrame(t *testing.T) {
	for _, profile := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.TrueColor} {
		t.Run(profile.String(), func(t *testing.T) { terminalShowsTheFrame(t, profile) })
	}
}

func terminalShowsTheFrame(t *testing.T, profile colorprofile.Profile) {
	term := &ttyTerm{vt: vt.NewEmulator(160, 48)}
	drainAnswers(t, term)
	lp := startProgramTo(t, "SPY", openMorning, profile, term)
	lp.waitLoaded(t)
	// Each refresh changes the ladder, the tape and the header in place,
	// so every comparison follows many diffs; each key below redraws
	// most of the screen over the last.
	matchScreen(t, lp, term, profile, 3, "Time & Sales", "the watch screen")
	keys := []struct {
		key         tea.KeyPressMsg
		shows, what string
	}{
		{tea.KeyPressMsg{Code: 'v', Text: "v"}, "SPY volatility", "the vol page"},
		{tea.KeyPressMsg{Code: tea.KeyEscape}, "Time & Sales · all", "the watch screen again"},
		{tea.KeyPressMsg{Code: tea.KeyEnter}, "IV and greeks per print", "the contract page"},
		{tea.KeyPressMsg{Code: tea.KeyEscape}, "Time & Sales · all", "the watch screen again"},
		{tea.KeyPressMsg{Code: 'W', Text: "W"}, "WATCHLIST", "the watchlist"},
		{tea.KeyPressMsg{Code: '?', Text: "?"}, "chainwatch · keys", "help over the watchlist"},
		{tea.KeyPressMsg{Code: tea.KeyEscape}, "WATCHLIST", "the watchlist again"},
	}
	for _, k := range keys {
		lp.p.Send(k.key)
		matchScreen(t, lp, term, profile, 1, k.shows, k.what)
	}
}

// matchScreen compares the terminal with the App's frame at n quiet
// moments once the frame shows the text shows: a moment is quiet when the
// App drew the same frame before and after the terminal was read.
func matchScreen(t *testing.T, lp *liveProgram, term *ttyTerm, profile colorprofile.Profile, n int, shows, what string) {
	t.Helper()
	matched, tries := 0, 0
	var last, lag string
	for ; matched < n && tries < 120; tries++ {
		before, ok := lp.probe()
		time.Sleep(250 * time.Millisecond) // longer than a render tick
		screen, styles := term.screen()
		after, ok2 := lp.probe()
		if !ok || !ok2 || before.frame != after.frame || after.frame == last ||
			!strings.Contains(ansi.Strip(after.frame), shows) {
			continue
		}
		// A loaded machine may not have written the frame out yet: a
		// difference counts only if no later quiet moment matches.
		if lag = screenLag(after.frame, screen, styles, profile); lag != "" {
			continue
		}
		matched++
		last = after.frame
	}
	if matched < n {
		t.Fatalf("%s: only %d matching quiet moments in %d tries; the last difference: %s", what, matched, tries, lag)
	}
}

// screenLag is how the terminal differs from the frame, "" if it does not.
func screenLag(frame, screen string, styles [][]uv.Style, profile colorprofile.Profile) string {
	want, got := plainLines(frame), plainLines(screen)
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("line %d of the terminal differs from the frame:\nframe:    %q\nterminal: %q", i+1, w, g)
		}
	}
	for y, row := range frameStyles(frame, len(styles[0]), len(styles), profile) {
		for x, s := range row {
			if !s.Equal(&styles[y][x]) {
				return fmt.Sprintf("the terminal's cell at line %d column %d is styled %q, the frame's %q\nframe line: %q",
					y+1, x+1, styles[y][x].String(), s.String(), want[min(y, len(want)-1)])
			}
		}
	}
	return ""
}
