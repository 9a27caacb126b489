package crash_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/crash"
)

// boom is a model that panics where it is told to: on the key "!" in
// Update, in View once it saw "v", or in a command of a batch or a
// sequence once it saw "b" or "s".
type boom struct{ viewPanics bool }

type wrapped struct{ Msg any }
type payload struct{ N int }

func (m *boom) Init() tea.Cmd { return nil }

func (m *boom) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	bad := func() tea.Msg { var s []int; return s[3] } // index out of range
	fine := func() tea.Msg { return nil }
	switch k.String() {
	case "!":
		var s []int
		_ = s[5]
	case "v":
		m.viewPanics = true
	case "b":
		return m, tea.Batch(fine, tea.Batch(fine, bad))
	case "s":
		return m, tea.Sequence(fine, bad)
	}
	return m, nil
}

func (m *boom) View() tea.View {
	if m.viewPanics {
		panic("the view broke")
	}
	return tea.NewView("fine")
}

// run runs a program of boom behind a Guard, sends it msgs, and returns
// the Guard once the program ended (10 s at most).
func run(t *testing.T, msgs ...tea.Msg) *crash.Guard {
	t.Helper()
	g := crash.New(&boom{})
	var out bytes.Buffer
	p := tea.NewProgram(g, tea.WithInput(nil), tea.WithOutput(&out), tea.WithWindowSize(120, 40), tea.WithoutSignalHandler())
	g.Bind(p)
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	// The program's own first size races with what is sent here: a key
	// that panics could be handled before it, and the crash would record
	// no size. The size goes first, as the terminal's would.
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, m := range msgs {
		p.Send(m)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v (a panic reached bubbletea)", err)
		}
	case <-time.After(10 * time.Second):
		p.Kill()
		t.Fatal("the program did not end within 10s")
	}
	return g
}

func key(s string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: rune(s[0]), Text: s} }

// A panic in Update, in View, or in a command (deep in a batch, or in a
// sequence) ends the program the ordinary way, with the panic's value, its
// stack at the panic and the last messages kept.
func TestGuardRecoversEveryPanic(t *testing.T) {
	for _, c := range []struct {
		key, where, value string
	}{
		{"!", "Update", "index out of range [5]"},
		{"v", "View", "the view broke"},
		{"b", "a command", "index out of range [3]"},
		{"s", "a command", "index out of range [3]"},
	} {
		g := run(t, wrapped{payload{1}}, tea.PasteMsg{Content: "secret-paste"}, key("x"), key(c.key))
		cr := g.Crash()
		if cr == nil {
			t.Fatalf("%s: no crash recorded", c.key)
		}
		if cr.Where != c.where || !strings.Contains(cr.Value, c.value) {
			t.Errorf("%s: where %q, value %q; want %q, %q", c.key, cr.Where, cr.Value, c.where, c.value)
		}
		if !strings.Contains(string(cr.Stack), "crash_test.(*boom)") {
			t.Errorf("%s: the stack does not reach the panic:\n%s", c.key, cr.Stack)
		}
		last := strings.Join(cr.Last, "\n")
		for _, want := range []string{"crash_test.wrapped crash_test.payload", "tea.PasteMsg (12 bytes, not kept)", "tea.KeyPressMsg x", "tea.KeyPressMsg " + c.key} {
			if !strings.Contains(last, want) {
				t.Errorf("%s: the last messages lack %q:\n%s", c.key, want, last)
			}
		}
		if strings.Contains(last, "secret-paste") {
			t.Errorf("%s: a paste's text was kept:\n%s", c.key, last)
		}
		if cr.Width != 120 || cr.Height != 40 {
			t.Errorf("%s: size %dx%d, want 120x40", c.key, cr.Width, cr.Height)
		}
	}
}

// A Relay's goroutine that panics ends the screen through Guard.Fail; one
// that panicked before a handler was set is handed over when it is.
func TestRelayHandsPanicsToTheGuard(t *testing.T) {
	r := &crash.Relay{Name: "the data monitor"}
	early := make(chan struct{})
	r.Go(func() { defer close(early); panic(errors.New("a fetch broke")) })
	<-early
	g := crash.New(&boom{})
	p := tea.NewProgram(g, tea.WithInput(nil), tea.WithOutput(&bytes.Buffer{}), tea.WithWindowSize(80, 24), tea.WithoutSignalHandler())
	g.Bind(p)
	r.Handle(g.Fail)
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		p.Kill()
		t.Fatal("the program did not end within 10s")
	}
	if c := g.Crash(); c == nil || c.Where != "the data monitor" || c.Value != "a fetch broke" || !strings.Contains(string(c.Stack), "TestRelayHandsPanicsToTheGuard") {
		t.Fatalf("crash %+v", c)
	}
}

// The ring keeps the last Keep messages, oldest first.
func TestGuardKeepsTheLastMessages(t *testing.T) {
	g := crash.New(&boom{})
	for i := range crash.Keep + 8 {
		g.Update(tea.WindowSizeMsg{Width: 100 + i, Height: 30})
	}
	g.Update(key("!"))
	c := g.Crash()
	if c == nil || len(c.Last) != crash.Keep {
		t.Fatalf("crash %+v", c)
	}
	if !strings.HasSuffix(c.Last[0], "tea.WindowSizeMsg 109x30") || !strings.HasSuffix(c.Last[crash.Keep-1], "tea.KeyPressMsg !") {
		t.Fatalf("first %q, last %q", c.Last[0], c.Last[crash.Keep-1])
	}
	if c.Width != 139 || c.Height != 30 {
		t.Fatalf("size %dx%d", c.Width, c.Height)
	}
}

// quiet is a model that does nothing, to measure the Guard alone.
type quiet struct{}

func (quiet) Init() tea.Cmd                         { return nil }
func (q quiet) Update(tea.Msg) (tea.Model, tea.Cmd) { return q, nil }
func (quiet) View() tea.View                        { return tea.View{} }

// Keeping a message allocates nothing.
func TestGuardUpdateAllocatesNothing(t *testing.T) {
	g := crash.New(quiet{})
	msgs := []tea.Msg{key("j"), tea.WindowSizeMsg{Width: 80, Height: 24}, wrapped{payload{1}}, tea.PasteMsg{Content: "x"}}
	if n := testing.AllocsPerRun(200, func() {
		for _, m := range msgs {
			g.Update(m)
		}
	}); n != 0 {
		t.Fatalf("%v allocations per 4 messages", n)
	}
}

func BenchmarkGuardUpdate(b *testing.B) {
	g := crash.New(quiet{})
	var msg tea.Msg = wrapped{payload{1}}
	b.ReportAllocs()
	for b.Loop() {
		g.Update(msg)
	}
}
