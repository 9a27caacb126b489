package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// replayLog is a replay clock that keeps what the keys asked of it.
type replayLog struct {
	calls []string
	speed float64
}

func (r *replayLog) TogglePause() { r.calls = append(r.calls, "pause") }
func (r *replayLog) Scale(f float64) {
	r.speed *= f
	r.calls = append(r.calls, fmt.Sprint("scale ", f))
}
func (r *replayLog) Jump(d time.Duration) { r.calls = append(r.calls, fmt.Sprint("jump ", d)) }
func (r *replayLog) State() string        { return fmt.Sprintf("REPLAY x%g", r.speed) }

// TestReplayKeysDriveTheClock: on a replay the keys pause, change the
// speed and jump, the status bar says the clock's state, and the help
// lists them.
func TestReplayKeysDriveTheClock(t *testing.T) {
	c := &clock{t: testNow}
	rl := &replayLog{speed: 1}
	r := newRig(t, Config{Source: "REPLAY", Symbol: "SPY", Now: c.Now, Theme: "dark", Replay: rl})
	a := r.a
	a.Init()
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	a.Update(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	for _, k := range ")){}(" {
		a.Update(runeKey(k))
	}
	want := "pause,scale 2,scale 2,jump -1m0s,jump 1m0s,scale 0.5"
	if got := strings.Join(rl.calls, ","); got != want {
		t.Fatalf("calls %s, want %s", got, want)
	}
	if out := ansi.Strip(a.View().Content); !strings.Contains(out, "REPLAY x2") {
		t.Fatalf("the status bar does not say the replay's state:\n%s", out)
	}
	a.Update(runeKey('?'))
	if !helpOpen(a) || !strings.Contains(ansi.Strip(a.View().Content), "replay: pause/resume") {
		t.Fatal("the help does not list the replay's keys")
	}
}
