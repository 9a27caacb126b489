package serve_test

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
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/serve"
)

// lockedBuffer is a log read while sessions write to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// brokenScreen panics while the session's model is made.
func brokenScreen(serve.User) (tea.Model, func()) {
	var m map[string]tea.Model
	m["screen"] = nil // assignment to a nil map
	return nil, nil
}

// panickyExec panics on "boom" and succeeds on anything else.
func panickyExec(_ context.Context, _ serve.User, args []string, _ io.Reader, stdout, _ io.Writer) int {
	if args[0] == "boom" {
		panic(errors.New("the command broke"))
	}
	io.WriteString(stdout, "fine\n")
	return 0
}

// A panic outside a screen's guard (the screen's constructor, an exec
// request's command) ends that session only: logged with the key and the
// stack, the trader told, exit status 70; the server serves on.
func TestPanicOutsideTheScreenEndsOnlyItsSession(t *testing.T) {
	dir := t.TempDir()
	hk, _, err := serve.HostKey(filepath.Join(dir, "host_key"))
	if err != nil {
		t.Fatal(err)
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	key, _ := gossh.NewSignerFromKey(priv)
	authorized := filepath.Join(dir, "authorized_keys")
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(key.PublicKey()))) + " alice@desk\n"
	if err := os.WriteFile(authorized, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	log := &lockedBuffer{}
	srv, err := serve.New(serve.Options{HostKey: hk, AuthorizedKeys: authorized, Screen: brokenScreen, Exec: panickyExec,
		Log: slog.New(slog.NewTextHandler(log, nil))})
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
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("the server did not stop within 20s")
		}
	}()
	c, err := gossh.Dial("tcp", ln.Addr().String(), &gossh.ClientConfig{User: "trader", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.FixedHostKey(hk.PublicKey()), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	run := func(cmd string, pty bool) (string, error) {
		t.Helper()
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		if pty {
			if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
				t.Fatal(err)
			}
		}
		var out, errOut bytes.Buffer // x/crypto copies each in a goroutine of its own
		sess.Stdout, sess.Stderr = &out, &errOut
		if cmd == "" {
			if err := sess.Shell(); err != nil {
				t.Fatal(err)
			}
			err = sess.Wait()
		} else {
			err = sess.Run(cmd)
		}
		return out.String() + errOut.String(), err
	}
	for _, c := range []struct {
		cmd   string
		pty   bool
		where string
		value string
	}{
		{"boom", false, "the session's handler", "the command broke"},
		{"", true, "the session's handler", "assignment to entry in nil map"},
	} {
		out, err := run(c.cmd, c.pty)
		var exit *gossh.ExitError
		if !errors.As(err, &exit) || exit.ExitStatus() != 70 || !strings.Contains(out, "an internal error ended this session") {
			t.Errorf("%q: %v, %q; want exit status 70 and the notice", c.cmd, err, out)
		}
		if l := log.String(); !strings.Contains(l, `msg="session panicked" key=alice`) || !strings.Contains(l, c.value) ||
			!strings.Contains(l, `in="`+c.where+`"`) || !strings.Contains(l, "serve_test.") {
			t.Errorf("%q: the panic is not logged with its key, value and stack: %s", c.cmd, l)
		}
	}
	if out, err := run("fine", false); err != nil || out != "fine\n" {
		t.Fatalf("after the panics the server does not serve: %v, %q", err, out)
	}
}
