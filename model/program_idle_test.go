package model

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// TestProgramSleepsWhenIdle holds the bubbletea the program links to a
// render loop that sleeps when there is nothing to draw: upstream's, up
// to v2.1.1 at least, wakes 60 times a second for the program's whole
// life, and third_party/bubbletea is the copy that does not (go.mod
// replaces the module with it). If the replace goes, or an upgrade
// brings a bubbletea whose loop ticks again, this fails.
//
// It runs a real tea.Program at bubbletea's default frame rate (60, as
// chainwatch runs it) with an alternate-screen view like the App's,
// inside a synctest bubble: time is the bubble's fake clock, so a minute
// of idleness takes no real time and every tick a ticker owes in it
// fires, whatever the machine's load; nothing here waits on the real
// clock. The wakes are counted by the block profile: every time a
// goroutine blocked in bubbletea's or ultraviolet's code (a select, a
// channel) resumes, whatever the loop is called.
func TestProgramSleepsWhenIdle(t *testing.T) {
	runtime.SetBlockProfileRate(1) // every blocking event, not a sample
	t.Cleanup(func() { runtime.SetBlockProfileRate(0) })

	synctest.Test(t, func(t *testing.T) {
		out := &lockedBuffer{}
		p := tea.NewProgram(idleModel{text: "before"}, tea.WithInput(nil), tea.WithOutput(out),
			tea.WithWindowSize(160, 48), tea.WithoutSignalHandler(),
			tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
		done := make(chan error, 1)
		go func() {
			_, err := p.Run()
			done <- err
		}()

		// The first frame, and time for a ticker to notice nothing is
		// left to draw.
		time.Sleep(time.Second)
		synctest.Wait()
		if !strings.Contains(out.String(), "before") {
			t.Fatalf("the first frame was not drawn in a second: %q", out.String())
		}

		// A minute of idleness: 3,600 frame intervals at 60 fps.
		if n := idleWakes(t, time.Minute); n > maxStrayWakes {
			t.Errorf("idle for a minute, bubbletea's goroutines woke %d times: its render loop ticks with nothing to draw (is third_party/bubbletea still what go.mod replaces bubbletea with?)", n)
		}

		// A change after a pause is drawn at once: the frame is out
		// before the bubble's clock moves at all (synctest.Wait returns
		// once every goroutine is blocked, without advancing it), not at
		// the next tick.
		w0, before := teaWakes(t), out.Len()
		p.Send(textMsg("after"))
		synctest.Wait()
		if !strings.Contains(out.String()[before:], "after") {
			t.Errorf("a change after a pause was not drawn until the clock moved: the render loop waits for a tick")
		}
		// The count is alive: the message woke the event loop and the
		// render loop, so a renamed loop cannot hide from it.
		if teaWakes(t) == w0 {
			t.Fatalf("the block profile saw no bubbletea goroutine wake for a message: it cannot count the render loop's wakes")
		}

		// Having drawn, the loop goes back to sleep: one tick finds
		// nothing pending and stops the ticker.
		if n := idleWakes(t, time.Minute); n > 1+maxStrayWakes {
			t.Errorf("idle for a minute after a frame, bubbletea's goroutines woke %d times: the render loop does not go back to sleep", n)
		}

		p.Quit()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

// maxStrayWakes is how many wakes of another test's program (outside the
// bubble, on the real clock) an idle minute may count: the bubble's
// minute takes well under a millisecond of real time, and another
// program left running wakes a few times a second at most. A loop that
// ticks counts 3,600.
const maxStrayWakes = 3

// idleWakes lets d pass on the bubble's clock with nothing sent to the
// program, and counts the wakes of bubbletea's goroutines meanwhile.
func idleWakes(t *testing.T, d time.Duration) int64 {
	t.Helper()
	w0 := teaWakes(t)
	time.Sleep(d)
	synctest.Wait()
	return teaWakes(t) - w0
}

// teaWakes is how many times a goroutine blocked in bubbletea's or
// ultraviolet's code has resumed since the block profile began
// (runtime.SetBlockProfileRate).
func teaWakes(t *testing.T) int64 {
	t.Helper()
	var records []runtime.BlockProfileRecord
	for n := 64; ; n *= 2 {
		records = make([]runtime.BlockProfileRecord, n)
		if m, ok := runtime.BlockProfile(records); ok {
			records = records[:m]
			break
		}
	}
	var wakes int64
	for _, r := range records {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if strings.HasPrefix(f.Function, "charm.land/bubbletea/v2.") || strings.HasPrefix(f.Function, "github.com/charmbracelet/ultraviolet.") {
				wakes += r.Count
				break
			}
			if !more {
				break
			}
		}
	}
	return wakes
}

// idleModel is a screen that changes only when told to.
type idleModel struct{ text string }

type textMsg string

func (m idleModel) Init() tea.Cmd { return nil }

func (m idleModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(textMsg); ok {
		m.text = string(s)
	}
	return m, nil
}

func (m idleModel) View() tea.View {
	v := tea.NewView(m.text)
	v.AltScreen = true
	return v
}

// lockedBuffer is the program's terminal: written by the renderer, read
// by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *lockedBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}
