package cmd

import (
	"context"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/serve"
)

// panicOnKey is the test's hook into a real screen: it hands every message
// to the screen, except "!", after which its View panics as a drawing bug
// does (an index out of range). Production code cannot reach it.
type panicOnKey struct {
	tea.Model
	armed bool
}

func (p *panicOnKey) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "!" {
		p.armed = true
		return p, nil
	}
	m, cmd := p.Model.Update(msg)
	p.Model = m
	return p, cmd
}

func (p *panicOnKey) View() tea.View {
	if p.armed {
		segs, i := []int{1, 2, 3}, 88
		_ = segs[i]
	}
	return p.Model.View()
}

// servePanicking serves the rig's desk on a second listener whose screens
// are behind panicOnKey, and points the rig's clients at it.
func servePanicking(t *testing.T, r *deskRig) {
	t.Helper()
	hk, made, err := serve.HostKey(filepath.Join(r.home, "state", "chainwatch", hostKeyFile))
	if err != nil || made {
		t.Fatalf("the rig's host key: made %v, %v", made, err)
	}
	d := r.desk
	srv, err := serve.New(serve.Options{HostKey: hk, AuthorizedKeys: filepath.Join(r.home, "authorized_keys"), Log: d.log, Exec: d.exec,
		Screen: func(u serve.User) (tea.Model, func()) {
			m, done := d.screen(u)
			return &panicOnKey{Model: m}, done
		}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("the server did not stop within 20s")
		}
	})
	r.addr = ln.Addr().String()
}

// The item, in serve: a session whose screen panics is logged as
// a panic with its stack and key, its trader is told before the channel
// closes (exit status 70), and the other session goes on drawing.
func TestServePanicEndsOnlyThatSession(t *testing.T) {
	r := startDesk(t, serve.Options{}, "alice", "bob")
	servePanicking(t, r)
	alice, bob := r.screen(r.login("alice")), r.screen(r.login("bob"))
	alice.waitLadder()
	bob.waitLadder()
	io.WriteString(alice.keys, "!")
	select {
	case err := <-alice.ended:
		var exit *gossh.ExitError
		if !errors.As(err, &exit) || exit.ExitStatus() != ExitInternal {
			t.Errorf("alice's session ended with %v, want exit status %d", err, ExitInternal)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("alice's session did not end within 20s of the panic")
	}
	raw := alice.out.String()
	restored, told := strings.LastIndex(raw, "\x1b[?1049l"), strings.LastIndex(raw, "an internal error ended this session")
	if restored < 0 || told < restored {
		t.Errorf("alice's terminal was not restored, then told: %q", raw[max(0, len(raw)-300):])
	}
	log := r.log.String()
	var line string
	for l := range strings.Lines(log) {
		if strings.Contains(l, "session panicked") {
			line = l
		}
	}
	fp := gossh.FingerprintSHA256(r.keys["alice"].PublicKey())
	for _, want := range []string{"level=ERROR", "key=alice", "fingerprint=" + fp, "in=View", "index out of range [88] with length 3",
		"stack=", "cmd.(*panicOnKey).View", "size=160x48", "tea.KeyPressMsg !"} {
		if !strings.Contains(line, want) {
			t.Errorf("the panic's log line lacks %q: %q", want, line)
		}
	}
	// The close is logged once the session's channel is closed.
	for i := 0; i < 500 && !strings.Contains(r.log.String(), "key=alice why=panic"); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(r.log.String(), "key=alice why=panic") {
		t.Errorf("the screen's close is not logged as a panic: %s", r.log.String())
	}
	// Bob's screen goes on: it is drawn again at a new size, and follows
	// a key to the vol page.
	before := bob.bytes()
	if err := bob.sess.WindowChange(40, 140); err != nil {
		t.Fatal(err)
	}
	bob.waitFor("a redraw at 140x40", func(string) bool { return bob.bytes() > before })
	seen := strings.Count(bob.text(), "ATM IV % by DTE")
	io.WriteString(bob.keys, "v")
	bob.waitFor("the vol page", func(s string) bool { return strings.Count(s, "ATM IV % by DTE") > seen })
	if strings.Count(log, "session panicked") != 1 {
		t.Errorf("more than alice's session panicked: %s", log)
	}
}
