package serve_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"chainwatch/serve"
)

// keyDesk is a server whose authorized_keys the test writes, and which
// keeps the user of every command it ran.
type keyDesk struct {
	addr, path string
	host       gossh.PublicKey
	log        *syncBuffer
	mu         sync.Mutex
	users      []serve.User
}

func startKeyDesk(t *testing.T, lines ...string) *keyDesk {
	t.Helper()
	d := &keyDesk{path: filepath.Join(t.TempDir(), "authorized_keys"), log: &syncBuffer{}}
	writeKeys(t, d.path, lines...)
	if _, err := serve.CheckAuthorizedKeys(d.path); err != nil {
		t.Fatalf("the file at start: %v", err)
	}
	d.addr, _, d.host = startServerWith(t, &sizes{}, serve.Options{AuthorizedKeys: d.path, Log: slog.New(slog.NewTextHandler(d.log, nil)),
		Exec: func(_ context.Context, u serve.User, _ []string, _ io.Reader, _, _ io.Writer) int {
			d.mu.Lock()
			defer d.mu.Unlock()
			d.users = append(d.users, u)
			return 0
		}})
	return d
}

// run logs in with key and runs a command; with pty, it asks for a
// terminal first and reports whether it got one.
func (d *keyDesk) run(t *testing.T, key gossh.Signer, pty bool) (loggedIn, gotPty bool, status int) {
	t.Helper()
	c, _, err := dialKey(t, d.addr, key, d.host)
	if err != nil {
		return false, false, -1
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if pty {
		gotPty = sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}) == nil
	}
	err = sess.Run("version")
	var exit *gossh.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		status = exit.ExitStatus()
	default:
		t.Fatalf("the command: %v", err)
	}
	return true, gotPty, status
}

// Options of authorized_keys are honoured as sshd honours them: from=
// (CIDR, wildcards, negation) on the client's address, expiry-time=,
// no-pty and restrict (a command runs, a terminal is refused), and pty
// after restrict.
func TestAuthorizedKeysOptionsAreHonoured(t *testing.T) {
	type want struct{ login, pty bool }
	cases := []struct {
		name string
		opts []string
		want want
	}{
		{"plain", nil, want{true, true}},
		{"nopty", []string{"no-pty"}, want{true, false}},
		{"restricted", []string{"restrict"}, want{true, false}},
		{"restrictpty", []string{"restrict", "pty"}, want{true, true}},
		{"fromloop", []string{`from="10.0.0.0/8,127.0.0.1"`}, want{true, true}},
		{"fromblock", []string{`from="127.0.0.0/8"`}, want{true, true}},
		{"fromwild", []string{`from="127.0.0.?"`}, want{true, true}},
		{"fromelse", []string{`from="10.0.0.0/8,192.168.*"`}, want{false, false}},
		{"fromnegated", []string{`from="127.0.0.*,!127.0.0.1"`}, want{false, false}},
		{"expired", []string{`expiry-time="20200101"`}, want{false, false}},
		{"notyet", []string{`expiry-time="29991231235959Z"`}, want{true, true}},
	}
	keys := make([]gossh.Signer, len(cases))
	lines := []string{"# the desk"}
	for i, c := range cases {
		keys[i] = newKey(t)
		lines = append(lines, authorizedLine(keys[i], c.name+"@desk", c.opts...))
	}
	d := startKeyDesk(t, lines...)
	for i, c := range cases {
		login, pty, status := d.run(t, keys[i], true)
		if login != c.want.login || pty != c.want.pty || login && status != 0 {
			t.Errorf("%s (%v): logged in %v, terminal %v, status %d; want %v, %v, 0", c.name, c.opts, login, pty, status, c.want.login, c.want.pty)
		}
		if !c.want.login && !strings.Contains(d.log.String(), gossh.FingerprintSHA256(keys[i].PublicKey())) {
			t.Errorf("%s: the refusal is not logged with the fingerprint: %s", c.name, d.log.String())
		}
	}
	// A key whose line says no-pty asks for the screen without a terminal:
	// it is told why, with exit status 2.
	c, _, err := dialKey(t, d.addr, keys[1], d.host)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	sess.Stderr = out
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	var exit *gossh.ExitError
	if err := sess.Wait(); !errors.As(err, &exit) || exit.ExitStatus() != 2 || !strings.Contains(out.String(), "may not open a terminal") {
		t.Fatalf("the screen for a no-pty key: %v, %q", err, out.String())
	}
}

// A line with an option serve does not honour is refused with its line
// number: at start (serve does not listen), and when the file is read
// again at a login (that key does not log in; the others do).
func TestAuthorizedKeysUnsupportedOptionsAreRefused(t *testing.T) {
	alice, bob := newKey(t), newKey(t)
	for _, opt := range []string{`command="chain SPY"`, "cert-authority", `environment="A=b"`, `principals="x"`, "no-touch-required", `tunnel="1"`} {
		d := t.TempDir()
		path := filepath.Join(d, "authorized_keys")
		writeKeys(t, path, "# the desk", authorizedLine(alice, "alice@desk"), authorizedLine(bob, "bob@desk", "no-pty", opt))
		name, _, _ := strings.Cut(opt, "=")
		if _, err := serve.CheckAuthorizedKeys(path); err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), name) {
			t.Errorf("%s at start: %v; want line 3 and the option named", opt, err)
		}
	}
	d := startKeyDesk(t, authorizedLine(alice, "alice@desk"), authorizedLine(bob, "bob@desk"))
	writeKeys(t, d.path, authorizedLine(alice, "alice@desk"), authorizedLine(bob, "bob@desk", `command="chain SPY"`))
	if login, _, _ := d.run(t, bob, false); login {
		t.Fatal("a key whose line has command= logged in and ran what it asked")
	}
	if login, _, status := d.run(t, alice, false); !login || status != 0 {
		t.Fatalf("another key's line refused alice: %v, %d", login, status)
	}
	if l := d.log.String(); !strings.Contains(l, "line 2") || !strings.Contains(l, "command") {
		t.Fatalf("the log does not say which line and option: %s", l)
	}
}

// Two keys whose comments give one name would share one state: refused
// at start and at a login after the file changed, with both
// fingerprints; a key's own name reaches its session.
func TestAuthorizedKeysNameClashIsRefused(t *testing.T) {
	laptop, other := newKey(t), newKey(t)
	fps := []string{gossh.FingerprintSHA256(laptop.PublicKey()), gossh.FingerprintSHA256(other.PublicKey())}
	path := filepath.Join(t.TempDir(), "authorized_keys")
	writeKeys(t, path, authorizedLine(laptop, "desk-a@laptop"), authorizedLine(other, "Desk-A@other"))
	_, err := serve.CheckAuthorizedKeys(path)
	if err == nil || !strings.Contains(err.Error(), fps[0]) || !strings.Contains(err.Error(), fps[1]) {
		t.Fatalf("a clash at start: %v; want both fingerprints", err)
	}

	d := startKeyDesk(t, authorizedLine(laptop, "desk-a@laptop"))
	if login, _, status := d.run(t, laptop, false); !login || status != 0 {
		t.Fatalf("desk-a@laptop alone: %v, %d", login, status)
	}
	writeKeys(t, d.path, authorizedLine(laptop, "desk-a@laptop"), authorizedLine(other, "desk-a@other"))
	for i, k := range []gossh.Signer{laptop, other} {
		if login, _, _ := d.run(t, k, false); login {
			t.Errorf("key %d of a clash logged in", i)
		}
	}
	if l := d.log.String(); !strings.Contains(l, fps[0]) || !strings.Contains(l, fps[1]) || !strings.Contains(l, "both named desk-a") {
		t.Fatalf("the log does not name the clash: %s", l)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.users) != 1 || d.users[0].Name != "desk-a" || d.users[0].Fingerprint != fps[0] || d.users[0].Keys != 1 {
		t.Fatalf("the sessions' users: %+v", d.users)
	}
}
