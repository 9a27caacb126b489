package serve

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// counter is a screen that shows how many messages it was sent.
type counter struct{ n int }

type dataMsg struct{}

func (c *counter) Init() tea.Cmd { return nil }

func (c *counter) Update(tea.Msg) (tea.Model, tea.Cmd) {
	c.n++
	return c, nil
}

func (c *counter) View() tea.View { return tea.NewView(fmt.Sprintf("n=%d", c.n)) }

// release runs the command a held message returned: the wait, then the
// message that ends it.
func release(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	if cmd == nil {
		t.Fatal("a held frame armed no release")
	}
	msg := cmd()
	if _, ok := msg.(releaseMsg); !ok {
		t.Fatalf("the hold's command said %T, want its release", msg)
	}
	return msg
}

// What arrives together is drawn as one frame: a message's frame is held
// for the wait, the messages after it join it, and the release shows all.
func TestPacedHoldsWhatArrivesTogether(t *testing.T) {
	const wait = 20 * time.Millisecond
	p := pace(&counter{}, wait)
	_, cmd := p.Update(dataMsg{})
	if got := p.View().Content; got != "n=0" {
		t.Fatalf("a data message was drawn at once: %q", got)
	}
	if _, again := p.Update(dataMsg{}); again != nil {
		t.Fatal("a second message armed a second release")
	}
	began := time.Now()
	msg := release(t, cmd)
	if took := time.Since(began); took < wait {
		t.Fatalf("released after %s, want at least %s", took, wait)
	}
	p.Update(msg)
	if got := p.View().Content; got != "n=2" {
		t.Fatalf("after the release the screen shows %q, want both messages' frame n=2", got)
	}
	// The next message is held again, from the frame now shown.
	if _, cmd = p.Update(dataMsg{}); cmd == nil || p.View().Content != "n=2" {
		t.Fatalf("the next message: held %v, shown %q", cmd != nil, p.View().Content)
	}
}

// A trader's own input is drawn at once, with whatever was held; the
// release armed before it then changes nothing.
func TestPacedDrawsInputAtOnce(t *testing.T) {
	for _, in := range []tea.Msg{tea.KeyPressMsg{Code: 'j'}, tea.MouseClickMsg{}, tea.MouseWheelMsg{},
		tea.PasteMsg{Content: "SPY"}, tea.WindowSizeMsg{Width: 80, Height: 24}} {
		p := pace(&counter{}, time.Hour)
		_, cmd := p.Update(dataMsg{})
		if cmd == nil || p.View().Content != "n=0" {
			t.Fatalf("%T: the data message was not held", in)
		}
		p.Update(in)
		if got := p.View().Content; got != "n=2" {
			t.Errorf("%T: the screen shows %q, want n=2 at once", in, got)
		}
		p.Update(releaseMsg{gen: 1}) // the hold's release, outdated by the input
		if got := p.View().Content; got != "n=2" {
			t.Errorf("%T: after the outdated release the screen shows %q", in, got)
		}
		if _, cmd = p.Update(dataMsg{}); cmd == nil || p.View().Content != "n=2" {
			t.Errorf("%T: a message after the input was not held from its frame", in)
		}
	}
}

// Without a wait every frame is drawn at once, as bubbletea does.
func TestPacedWithoutWait(t *testing.T) {
	p := pace(&counter{}, 0)
	if _, cmd := p.Update(dataMsg{}); cmd != nil || p.View().Content != "n=1" {
		t.Fatalf("no wait: held %v, shown %q", cmd != nil, p.View().Content)
	}
}
