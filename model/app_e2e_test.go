package model

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"chainwatch/api"
)

// snapshot is what the end-to-end test reads of the running App. It is
// taken inside Update, on the program's goroutine, so the test never
// races the model.
type snapshot struct {
	symbol   string
	expiry   api.Date
	rows     int
	loaded   bool
	help     bool
	tapeHeld int
	spent    int
}

// probe asks the running program for a snapshot S of its App, taken on
// the program's goroutine.
type probe[S any] chan S

// probed wraps the App to answer probes of S with snap; everything else
// goes through.
type probed[S any] struct {
	*App
	snap func(*App) S
}

func (p probed[S]) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ch, ok := msg.(probe[S]); ok {
		ch <- p.snap(p.App)
		return p, nil
	}
	if ch, ok := msg.(probe[drawnFrame]); ok {
		ch <- drawnFrame(ansi.Strip(p.App.scr.frame.Content))
		return p, nil
	}
	_, cmd := p.App.Update(msg)
	return p, cmd
}

// watchSnap is the snapshot of the watch flow.
func watchSnap(a *App) snapshot {
	return snapshot{
		symbol: a.q.Symbol, expiry: a.ws().Chain().Expiry(), loaded: !a.ws().Chain().LastOK().IsZero(),
		rows: a.ws().Chain().Strikes(), help: helpOpen(a), tapeHeld: a.ws().Tape().Held(),
		spent: a.feeds().Stats(a.sh.Now()).SessionSpent,
	}
}

// waitState probes the program until cond holds, for at most 30 s.
func waitState(t *testing.T, tm *teatest.TestModel, what string, cond func(snapshot) bool) snapshot {
	t.Helper()
	return waitProbe(t, tm, what, cond)
}

// waitProbe sends probes of S until cond holds, for at most 30 s.
func waitProbe[S any](t *testing.T, tm *teatest.TestModel, what string, cond func(S) bool) S {
	t.Helper()
	var last S
	for i := 0; i < 600; i++ {
		ch := make(probe[S], 1)
		tm.Send(ch)
		select {
		case last = <-ch:
			if cond(last) {
				return last
			}
		case <-time.After(time.Second):
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: not reached in 30 s; last state %+v", what, last)
	return last
}

// screenText collects the terminal output, without escape codes.
type screenText struct{ buf bytes.Buffer }

// wait reads the output until every want has appeared, for at most 20 s:
// the renderer draws at its own frame rate, after Update.
func (s *screenText) wait(t *testing.T, tm *teatest.TestModel, what string, wants ...string) {
	t.Helper()
	var text string
	for i := 0; i < 400; i++ {
		if _, err := io.Copy(&s.buf, tm.Output()); err != nil {
			t.Fatal(err)
		}
		text = ansi.Strip(s.buf.String())
		if containsAll(text, wants) || containsAll(string(frameNow(tm)), wants) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: the output never showed all of %q; last 3000 bytes:\n%s", what, wants, text[max(0, len(text)-3000):])
}

// drawnFrame is the App's frame as drawn last, without escape codes.
type drawnFrame string

// frameNow asks the running program for the frame it drew last: the
// renderer writes only the cells that changed, so a text drawn over two
// frames, or around cells already on the screen, need not stand whole in
// the output.
func frameNow(tm *teatest.TestModel) drawnFrame {
	ch := make(probe[drawnFrame], 1)
	tm.Send(ch)
	select {
	case f := <-ch:
		return f
	case <-time.After(time.Second):
		return ""
	}
}

func containsAll(text string, wants []string) bool {
	for _, w := range wants {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// TestWatchScreenEndToEnd runs the whole screen in a real (virtual)
// terminal against the sandbox over loopback HTTP and OAuth2: it starts,
// shows the SPY ladder and tape, changes expiry, changes symbol through
// the prompt, opens help, and quits.
func TestWatchScreenEndToEnd(t *testing.T) {
	sh := startTestSandbox(t)
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark", FirstRun: true})
	tm := teatest.NewTestModel(t, probed[snapshot]{app, watchSnap}, teatest.WithInitialTermSize(160, 48))
	var screen screenText

	first := waitState(t, tm, "SPY ladder loaded", func(s snapshot) bool { return s.loaded && s.rows > 0 && s.tapeHeld > 0 })
	if first.symbol != "SPY" || first.expiry == 0 {
		t.Fatalf("start: %+v", first)
	}
	screen.wait(t, tm, "the first frames", "SPY", "SANDBOX", "Welcome", "Strike", "Time & Sales", "Events", "GREEN")

	// q dismisses the first-run banner and does nothing else: the screen
	// goes on to the next steps instead of quitting.
	tm.Type("q")
	tm.Type("]")
	waitState(t, tm, "next expiry", func(s snapshot) bool { return s.expiry > first.expiry && s.rows > 0 })

	// A typo: the service is asked, says no, and the ladder never left.
	tm.Type("/")
	tm.Type("nope")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	screen.wait(t, tm, "the refusal", "no such symbol: NOPE")
	if s := waitState(t, tm, "SPY still shown", func(s snapshot) bool { return s.symbol == "SPY" }); s.rows == 0 || !s.loaded {
		t.Fatalf("SPY's ladder did not stay through the lookup: %+v", s)
	}

	tm.Type("/")
	tm.Type("qqq")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	q := waitState(t, tm, "QQQ loaded", func(s snapshot) bool { return s.symbol == "QQQ" && s.loaded && s.rows > 0 })
	if q.spent <= first.spent {
		t.Fatalf("points spent did not rise: %d then %d", first.spent, q.spent)
	}

	tm.Type("?")
	waitState(t, tm, "help open", func(s snapshot) bool { return s.help })
	screen.wait(t, tm, "the help screen", "next expiry", "quit from anywhere")
	tm.Type("?")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	final := tm.FinalModel(t).(probed[snapshot])
	if final.q.Symbol != "QQQ" || final.Recent()[0] != "QQQ" {
		t.Fatalf("final symbol %q, recent %v", final.q.Symbol, final.Recent())
	}
	if final.ctx.Err() == nil {
		t.Fatal("quitting must cancel requests in flight")
	}
}
