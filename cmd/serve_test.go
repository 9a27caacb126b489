package cmd

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/serve"
)

// deskRig is chainwatch serve on 127.0.0.1 (an ephemeral port) in front of
// the in-process sandbox, which counts the requests it served; its
// traders' keys are in an authorized_keys file of the test's.
type deskRig struct {
	t      *testing.T
	addr   string
	reqs   *modeltest.Requests
	desk   *desk
	keys   map[string]gossh.Signer
	host   gossh.PublicKey
	log    *syncBuffer
	home   string
	getenv func(string) string
	// keyShare is [serve] key_share, set by a test's setup; 0: none.
	keyShare float64
	cancel   context.CancelFunc
	done     chan error
}

// startDesk serves SPY to traders (each a key named in authorized_keys) on
// a budget so small that nothing is polled after the first fetches: every
// request the sandbox counts is one a session's screen caused.
func startDesk(t *testing.T, o serve.Options, traders ...string) *deskRig {
	t.Helper()
	return startDeskWith(t, o, nil, traders...)
}

// startDeskWith is startDesk with setup's changes to the screen's
// settings before the desk is made (the server's own alert rules).
func startDeskWith(t *testing.T, o serve.Options, setup func(r *deskRig, cfg *model.Config), traders ...string) *deskRig {
	t.Helper()
	r := &deskRig{t: t, reqs: &modeltest.Requests{}, keys: map[string]gossh.Signer{}, log: &syncBuffer{}, home: t.TempDir(), done: make(chan error, 1)}
	client := modeltest.StartSandbox(t, sandbox.Config{Logger: r.reqs.Logger()})
	env := map[string]string{"HOME": r.home, "XDG_CONFIG_HOME": filepath.Join(r.home, "config"), "XDG_STATE_HOME": filepath.Join(r.home, "state")}
	getenv := func(k string) string { return env[k] }
	r.getenv = getenv
	cfg := model.Config{Client: client, Source: sourceSandbox, Symbol: "SPY", Now: modeltest.Clock, Theme: "dark", Budget: feed.Budget{PerDay: 1}}
	if setup != nil {
		setup(r, &cfg)
	}
	r.desk = newDesk(cfg, config.OpenState(getenv).In("serve"), getenv, slog.New(slog.NewTextHandler(r.log, nil)))
	r.desk.ledger.Share = r.keyShare // as serveRun sets [serve] key_share
	var lines strings.Builder
	for _, name := range traders {
		s := newKey(t)
		r.keys[name] = s
		lines.WriteString(strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey()))) + " " + name + "@desk\n")
	}
	o.AuthorizedKeys = filepath.Join(r.home, "authorized_keys")
	if err := os.WriteFile(o.AuthorizedKeys, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	hk, made, err := serve.HostKey(filepath.Join(r.home, "state", "chainwatch", hostKeyFile))
	if err != nil || !made {
		t.Fatalf("host key: made %v, %v", made, err)
	}
	o.HostKey, r.host = hk, hk.PublicKey()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- r.desk.serve(ctx, ln, o) }()
	t.Cleanup(func() {
		r.stop()
		r.desk.close()
	})
	return r
}

// stop ends the server as SIGTERM does and waits for it (bounded).
func (r *deskRig) stop() error {
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok {
			close(r.done)
		}
		return err
	case <-time.After(20 * time.Second):
		r.t.Fatal("the server did not stop within 20s")
	}
	return nil
}

func newKey(t *testing.T) gossh.Signer {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (r *deskRig) dial(auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", r.addr, &gossh.ClientConfig{User: "trader", Auth: auth,
		HostKeyCallback: gossh.FixedHostKey(r.host), Timeout: 10 * time.Second})
}

func (r *deskRig) login(name string) *gossh.Client {
	r.t.Helper()
	c, err := r.dial(gossh.PublicKeys(r.keys[name]))
	if err != nil {
		r.t.Fatalf("%s's key: %v", name, err)
	}
	r.t.Cleanup(func() { c.Close() })
	return c
}

// term is a screen session seen from its client: a pty of 160x48, the
// bytes it received, and its keyboard.
type term struct {
	t     *testing.T
	sess  *gossh.Session
	keys  io.Writer
	mu    sync.Mutex
	out   bytes.Buffer
	hold  sync.Mutex // held: the client stops reading (after at most one more read)
	ended chan error
}

func (r *deskRig) screen(c *gossh.Client) *term {
	r.t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 48, 160, gossh.TerminalModes{}); err != nil {
		r.t.Fatal(err)
	}
	stdout, _ := sess.StdoutPipe()
	stdin, _ := sess.StdinPipe()
	tm := &term{t: r.t, sess: sess, keys: stdin, ended: make(chan error, 1)}
	if err := sess.Shell(); err != nil {
		r.t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 32<<10)
		for {
			tm.hold.Lock()
			tm.hold.Unlock() //nolint:staticcheck // a held client waits here
			n, err := stdout.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				break
			}
		}
		tm.ended <- sess.Wait()
	}()
	return tm
}

func (tm *term) text() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return ansi.Strip(tm.out.String())
}

func (tm *term) bytes() int {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.out.Len()
}

// ladder is an expiry tab of the loaded chain ("Nov20 0d").
var ladder = regexp.MustCompile(`(Nov|Dec)\d\d +\d+d`)

// tapePrint is a print on the tape ("11:29:50 C     675").
var tapePrint = regexp.MustCompile(`\d\d:\d\d:\d\d [CP] +\d+`)

// waitFor polls the screen until ok (every 20 ms, 15 s at most).
func (tm *term) waitFor(what string, ok func(string) bool) {
	tm.t.Helper()
	for range 750 {
		if ok(tm.text()) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	tail := tm.text()
	tm.t.Fatalf("no %s on the screen within 15s; it ends: %q", what, tail[max(0, len(tail)-600):])
}

func (tm *term) waitLadder() { tm.waitFor("ladder", ladder.MatchString) }

// The "done when": traders with authorized keys watch SPY, each
// in their own terminal, while the sandbox serves one set of SPY
// requests; 20 sessions cost what one does.
func TestServeSessionsShareOneSetOfRequests(t *testing.T) {
	one := startDesk(t, serve.Options{}, "alice")
	tm := one.screen(one.login("alice"))
	tm.waitLadder()
	tm.waitFor("the tape", tapePrint.MatchString)
	oneSet := one.reqs.Paths()
	oneSpent := one.desk.mon.Stats(modeltest.Now).SessionSpent

	const n = 20
	desk := startDesk(t, serve.Options{MaxSessions: n}, "alice", "bob")
	terms := make([]*term, n)
	for i := range terms {
		name := []string{"alice", "bob"}[i%2]
		terms[i] = desk.screen(desk.login(name))
	}
	for _, tm := range terms {
		tm.waitLadder()
	}
	for _, tm := range terms {
		tm.waitFor("the sharing", func(s string) bool { return strings.Contains(s, "shared by") })
	}
	if got := desk.reqs.Count("/option-and-underlying-quotes"); got != strings.Count(strings.Join(oneSet, "\n"), "/option-and-underlying-quotes") || got == 0 {
		t.Fatalf("%d sessions asked the chain %d times; one session asks it %d times: %v", n, got, len(oneSet), desk.reqs.Paths())
	}
	if spent := desk.desk.mon.Stats(modeltest.Now).SessionSpent; spent != oneSpent || spent == 0 {
		t.Fatalf("%d sessions spent %d points, one session %d: want the points of one", n, spent, oneSpent)
	}
	if s := desk.desk.mon.Subscribe().Snapshot(modeltest.Now); s.Stats.SessionSpent != oneSpent {
		t.Fatalf("the monitor's account: %+v", s.Stats)
	}
	if !strings.Contains(terms[0].text(), "shared by 20 sessions") && !strings.Contains(terms[n-1].text(), "shared by 20 sessions") {
		t.Errorf("no screen says the chain is shared by 20 sessions")
	}
}

// Public keys only, from the file: an unknown key and a password are
// refused, the key's fingerprint is logged, and a login past
// --max-sessions is told why.
func TestServeRefusesUnknownKeysPasswordsAndTooManySessions(t *testing.T) {
	r := startDesk(t, serve.Options{MaxSessions: 1}, "alice")
	stranger := newKey(t)
	if _, err := r.dial(gossh.PublicKeys(stranger)); err == nil {
		t.Fatal("an unknown key was let in")
	}
	if fp := gossh.FingerprintSHA256(stranger.PublicKey()); !strings.Contains(r.log.String(), fp) || !strings.Contains(r.log.String(), "not authorized") {
		t.Fatalf("the refusal of %s is not logged: %s", fp, r.log.String())
	}
	if _, err := r.dial(gossh.Password("hunter2"), gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return []string{"hunter2"}, nil
	})); err == nil {
		t.Fatal("a password was let in")
	}
	c := r.login("alice")
	tm := r.screen(c)
	tm.waitLadder()
	sess, err := r.login("alice").NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.CombinedOutput("version")
	var exit *gossh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 1 || !strings.Contains(string(out), "all 1 sessions are in use") {
		t.Fatalf("a second session past --max-sessions 1: %v, %q", err, out)
	}
}

// An exec request runs the headless command on the served session, with
// its output and exit status; the desk's own commands and flags are not
// a session's to run.
func TestServeExecRunsHeadlessCommands(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(_ *deskRig, cfg *model.Config) { cfg.Budget.PerDay = 10000 }, "alice")
	c := r.login("alice")
	run := func(cmd string) (string, string, int) {
		t.Helper()
		return runOver(t, c, cmd)
	}
	out, errOut, code := run("chain SPY --json=option,option_bid")
	if code != 0 || !strings.Contains(out, `"option": "SPY`) || !strings.Contains(errOut, "points spent") {
		t.Fatalf("chain SPY --json: status %d, %q, %q", code, out[:min(len(out), 200)], errOut)
	}
	if r.desk.mon.Stats(modeltest.Now).SessionSpent == 0 {
		t.Fatal("the command's points are not in the server's budget")
	}
	for _, c := range []struct {
		cmd  string
		code int
		says string
	}{
		{"chain ZZZZ", ExitNoData, "ZZZZ"},
		{"chain SPY --json=nosuchfield", ExitInput, "unknown field"},
		{"login", ExitInput, "cannot run over ssh"},
		{"chain SPY --base-url=http://127.0.0.1:1", ExitInput, "server's to set"},
		{"chain SPY --config /etc/passwd", ExitInput, "server's to set"},
	} {
		_, errOut, code := run(c.cmd)
		if code != c.code || !strings.Contains(errOut, c.says) {
			t.Errorf("%s: status %d, %q; want %d saying %q", c.cmd, code, errOut, c.code, c.says)
		}
	}
}

// runOver runs cmd over c and returns its stdout, stderr and exit status.
func runOver(t *testing.T, c *gossh.Client, cmd string) (string, string, int) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out, errOut bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errOut
	err = sess.Run(cmd)
	var exit *gossh.ExitError
	switch {
	case err == nil:
		return out.String(), errOut.String(), 0
	case errors.As(err, &exit):
		return out.String(), errOut.String(), exit.ExitStatus()
	}
	t.Fatalf("%s: %v", cmd, err)
	return "", "", -1
}

// A session whose client stops reading does not hold the others up: while
// its frames wait unread, another session opens, draws its ladder (the
// shared monitor's replies reach it) and follows its keys. (That a
// subscriber that stops taking replies holds a bounded mailbox is
// TestMailboxLaggingSubscriberKeepsNewestPerFeed's.)
func TestServeSlowReaderDoesNotStallOthers(t *testing.T) {
	r := startDesk(t, serve.Options{}, "alice", "bob")
	slow := r.screen(r.login("alice"))
	slow.waitLadder()
	slow.hold.Lock()
	held := slow.bytes()
	// Every resize is most of the screen drawn again, none of it read.
	resized := make(chan struct{})
	go func() {
		defer close(resized)
		for i := range 100 {
			if slow.sess.WindowChange(60+i%2, 200+i%2) != nil {
				return
			}
			time.Sleep(10 * time.Millisecond) // a frame apiece, not one for all
		}
	}()
	<-resized
	fast := r.screen(r.login("bob"))
	fast.waitLadder()
	before := fast.bytes()
	io.WriteString(fast.keys, "v") // the vol page
	fast.waitFor("the vol page", func(string) bool { return fast.bytes() > before })
	// The slow client reads again, and finds the frames it had not read.
	slow.hold.Unlock()
	slow.waitFor("the frames it had not read", func(string) bool { return slow.bytes() > held })
}

// SIGTERM (the serve context's end) tells every session, restores its
// terminal and ends it with exit status 0; the server returns nil.
func TestServeStopEndsEverySessionCleanly(t *testing.T) {
	r := startDesk(t, serve.Options{}, "alice", "bob")
	a, b := r.screen(r.login("alice")), r.screen(r.login("bob"))
	a.waitLadder()
	b.waitLadder()
	if err := r.stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	for _, tm := range []*term{a, b} {
		select {
		case err := <-tm.ended:
			if err != nil {
				t.Errorf("the session ended with %v, want exit status 0", err)
			}
		case <-time.After(15 * time.Second):
			t.Fatal("a session did not end within 15s")
		}
		raw := tm.out.String()
		if !strings.Contains(raw, "\x1b[?1049l") || !strings.Contains(raw, "chainwatch serve is shutting down") {
			t.Errorf("the terminal was not restored and told: %q", raw[max(0, len(raw)-300):])
		}
	}
}

// A screen with no key pressed for the idle timeout is closed, and says so.
func TestServeIdleScreenIsClosed(t *testing.T) {
	r := startDesk(t, serve.Options{IdleTimeout: 3 * time.Second}, "alice")
	tm := r.screen(r.login("alice"))
	tm.waitFor("the idle notice", func(s string) bool { return strings.Contains(s, "no key pressed for 3s") })
	if !strings.Contains(r.log.String(), "why=idle") {
		t.Errorf("the log does not say why the screen closed: %s", r.log.String())
	}
}

// TestServeSessionsDoNotSettle: the watch command's screen hands back its
// startup's idle heap once (common.Settle), but a desk's screens share
// one process, where that forced collection would be every screen's cost
// (BenchmarkServeSessions): the desk's sessions never ask for it.
func TestServeSessionsDoNotSettle(t *testing.T) {
	cfg := model.Config{Client: modeltest.StartSandbox(t, sandbox.Config{}), Source: sourceSandbox, Symbol: "SPY",
		Now: modeltest.Clock, Budget: feed.Budget{PerDay: 1}, ReturnStartupMemory: true}
	home := t.TempDir()
	getenv := func(k string) string { return map[string]string{"HOME": home}[k] }
	d := newDesk(cfg, config.OpenState(getenv).In("serve"), getenv, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if d.base.ReturnStartupMemory {
		t.Error("the desk's sessions would each force a collection of the desk's process")
	}
}
