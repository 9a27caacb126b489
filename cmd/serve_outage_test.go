package cmd

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"

	"chainwatch/api"
	"chainwatch/model"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/serve"
)

// An outage of the service reaches every session: the desk's sandbox is
// stopped under two screens on SPY, a refresh in one fails, and both keep
// their ladder and say STALE, as one screen does. The clock runs (from
// the rig's day), so the failure comes after the last good reply.
func TestServeOutageShowsStaleInEverySession(t *testing.T) {
	var sb *sandbox.Server
	r := startDeskWith(t, serve.Options{}, func(r *deskRig, cfg *model.Config) {
		now := sandbox.Clock(modeltest.Now, 1)
		cfg.Now = now
		var err error
		if sb, err = sandbox.Start(sandbox.Config{Now: now, PerSecond: -1}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sb.Close() })
		ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: sb.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: sb.DemoSecret})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Client, err = api.NewClient(api.WithBaseURL(sb.BaseURL), api.WithTokenSource(ts), api.WithClock(now)); err != nil {
			t.Fatal(err)
		}
	}, "ann", "bob")
	ann := r.screen(r.login("ann"))
	ann.waitLadder()
	bob := r.screen(r.login("bob"))
	bob.waitLadder()
	if strings.Contains(ann.text()+bob.text(), "STALE") {
		t.Fatal("STALE before the outage")
	}

	sb.Close()
	io.WriteString(ann.keys, "r")
	for name, tm := range map[string]*term{"ann": ann, "bob": bob} {
		tm.waitFor(name+"'s STALE", func(s string) bool { return strings.Contains(s, "STALE") })
		screen := tm.screenNow()
		if !strings.Contains(screen, "STALE") || !ladder.MatchString(screen) || !strings.Contains(screen, "C Strike P") {
			t.Errorf("%s's screen after the outage:\n%s", name, screen)
		}
	}
}

// screenNow is what the session's terminal shows now: its bytes so far
// played on a terminal emulator of the pty's size.
func (tm *term) screenNow() string {
	tm.mu.Lock()
	b := bytes.Clone(tm.out.Bytes())
	tm.mu.Unlock()
	e := vt.NewEmulator(160, 48)
	// The emulator's answers to the program's queries go to a pipe that
	// must be read for Write to return. The reader is left blocked on the
	// pipe when this returns: closing the emulator from either goroutine
	// races with the other's check of its closed flag (vt has no lock).
	go func() {
		buf := make([]byte, 256)
		for {
			if _, err := e.Read(buf); err != nil {
				return
			}
		}
	}()
	_, _ = e.Write(b)
	s := e.String()
	return s
}
