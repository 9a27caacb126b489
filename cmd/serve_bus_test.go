package cmd

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/serve"
	"chainwatch/serve/bus/bustest"
)

// busServe is one `chainwatch serve` of a bus test: where its SSH server
// listens, its bus's URL (--bus-listen), a trader's key, and its stop.
type busServe struct {
	addr, busURL string
	key          gossh.Signer
	host         gossh.PublicKey
	errOut       *syncBuffer
	stop         func() error
}

// startServe runs `chainwatch serve args...` in env with one trader's key
// in the default authorized_keys, until stop; it waits until it listens.
func startServe(t *testing.T, env map[string]string, args ...string) *busServe {
	t.Helper()
	s := &busServe{key: traderKey(t, env), errOut: &syncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	addrs, buses := make(chan string, 1), make(chan string, 1)
	cmd := NewCmdServe(cli{env: env}.deps(&syncBuffer{}, s.errOut), func(o *ServeOptions) error {
		o.Context, o.Ready = ctx, func(a net.Addr) { addrs <- a.String() }
		o.BusReady = func(url string) { buses <- url }
		return serveRun(o)
	})
	cmd.SetArgs(append([]string{"--listen", "127.0.0.1:0", "--budget-per-day", "1"}, args...))
	cmd.SetErr(s.errOut)
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()
	stopped := false
	s.stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop within 30s")
			return nil
		}
	}
	t.Cleanup(func() { _ = s.stop() })
	select {
	case s.addr = <-addrs:
	case err := <-done:
		stopped = true
		t.Fatalf("serve ended: %v; %s", err, s.errOut.String())
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not listen within 60s")
	}
	select {
	case s.busURL = <-buses:
	default:
	}
	hk, _, err := serve.HostKey(filepath.Join(env["XDG_STATE_HOME"], "chainwatch", hostKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	s.host = hk.PublicKey()
	return s
}

// traderKey writes a trader's key as env's one authorized key.
func traderKey(t *testing.T, env map[string]string) gossh.Signer {
	t.Helper()
	conf := filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	key := newKey(t)
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(key.PublicKey()))) + " trader@desk\n"
	if err := os.WriteFile(filepath.Join(conf, authorizedKeysFile), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	return key
}

// screen logs the trader in with a pty and opens the watch screen.
func (s *busServe) screen(t *testing.T) *term {
	t.Helper()
	c, err := gossh.Dial("tcp", s.addr, &gossh.ClientConfig{User: "trader", Auth: []gossh.AuthMethod{gossh.PublicKeys(s.key)},
		HostKeyCallback: gossh.FixedHostKey(s.host), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return (&deskRig{t: t}).screen(c)
}

// within polls the screen until ok, at most d.
func (tm *term) within(d time.Duration, ok func(string) bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if ok(tm.text()) {
			return true
		}
	}
	return false
}

// dataRequests are the data requests the sandbox served (its token
// service's aside).
func dataRequests(r *modeltest.Requests) int {
	n := 0
	for _, p := range r.Paths() {
		if strings.Contains(p, "/v1/") {
			n++
		}
	}
	return n
}

// The "done when": with a standalone sandbox as the only service,
// serve A (credentials, --bus-listen) and serve B (no credentials, its
// service a closed port, --bus) each show SPY's ladder to an SSH session;
// with sessions on both the sandbox sees no more data requests than with
// A's alone; A stopped, B's session says STALE and keeps its ladder.
func TestServeBusTwoHostsOneSubscription(t *testing.T) {
	busDoneWhen(t, "")
}

// The same with A and B on a separate nats-server (A its source by its
// credentials).
func TestServeBusOnNatsServer(t *testing.T) {
	busDoneWhen(t, bustest.NatsServer(t))
}

// busDoneWhen runs the done-when on the bus at url, or A's embedded one
// when url is "".
func busDoneWhen(t *testing.T, url string) {
	var reqs modeltest.Requests
	now := sandbox.Clock(modeltest.Now, 1)
	sb, err := sandbox.Start(sandbox.Config{Now: now, PerSecond: -1, Logger: reqs.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	envA := homeEnv(t)
	envA[envClientID], envA[envClientSecret], envA[envAuthURL], envA[envBaseURL] = sandbox.DemoClientID, sb.DemoSecret, sb.AuthURL, sb.BaseURL
	busA := []string{"--bus-listen", "127.0.0.1:0", "--bus-name", "a"}
	if url != "" {
		busA = []string{"--bus", url, "--bus-name", "a"}
	}
	a := startServe(t, envA, busA...)
	if url == "" {
		url = a.busURL
	}
	if url == "" {
		t.Fatalf("serve A told no bus URL; %s", a.errOut.String())
	}
	onA := a.screen(t)
	onA.waitLadder()
	onA.waitFor("the tape", tapePrint.MatchString)
	time.Sleep(2 * time.Second) // what A's screen fetches at once is in
	alone := dataRequests(&reqs)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	envB := homeEnv(t)
	envB[envBaseURL] = closed
	b := startServe(t, envB, "--bus", url, "--bus-name", "b")
	onB := b.screen(t)
	onB.waitLadder()
	onB.waitFor("the tape", tapePrint.MatchString)
	time.Sleep(2 * time.Second)
	if both := dataRequests(&reqs); both > alone {
		t.Fatalf("with sessions on A and B the sandbox served %d data requests, with A's alone %d: %v", both, alone, reqs.Paths())
	}
	if screen := onB.screenNow(); !strings.Contains(screen, sourceLocal) {
		t.Errorf("B's screen does not carry A's badge %s:\n%s", sourceLocal, screen)
	}

	if err := a.stop(); err != nil {
		t.Fatalf("serve A: %v", err)
	}
	// A refresh asks the bus; one already in flight as A stopped may
	// still have had its answer, so ask again, a few times at most.
	stale := false
	for range 8 {
		io.WriteString(onB.keys, "r")
		if stale = onB.within(4*time.Second, func(s string) bool { return strings.Contains(s, "STALE") }); stale {
			break
		}
	}
	if !stale {
		t.Fatalf("B's screen never said STALE after A stopped:\n%s", onB.screenNow())
	}
	if screen := onB.screenNow(); !ladder.MatchString(screen) || !strings.Contains(screen, "C Strike P") {
		t.Fatalf("B's screen after A stopped:\n%s", screen)
	}
	if strings.Contains(b.errOut.String(), sb.DemoSecret) || strings.Contains(a.errOut.String(), sb.DemoSecret) {
		t.Fatal("a log holds the service's secret")
	}
}

// serve refuses at start, with exit status 2 and a message: a bus on an
// address other machines reach without users and TLS, a host joining one
// without credentials and TLS, and a second source on a bus.
func TestServeBusRefusals(t *testing.T) {
	run := func(env map[string]string, args ...string) error {
		errOut := &syncBuffer{}
		cmd := NewCmdServe(cli{env: env}.deps(&syncBuffer{}, errOut), func(o *ServeOptions) error {
			o.Context = t.Context()
			o.Ready = func(net.Addr) { t.Errorf("serve %v listened", args) }
			return serveRun(o)
		})
		cmd.SetArgs(append([]string{"--listen", "127.0.0.1:0"}, args...))
		cmd.SetErr(errOut)
		return cmd.Execute()
	}
	env := homeEnv(t)
	traderKey(t, env)
	creds := func(name string, perm os.FileMode) string {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, []byte("bob pw-7731\n"), perm); err != nil {
			t.Fatal(err)
		}
		return p
	}
	private, open := creds("private", 0o600), creds("open", 0o644)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--bus-listen", "0.0.0.0:0"}, "not a loopback address"},
		{[]string{"--bus", "nats://10.1.2.3:4222"}, "not a loopback address"},
		{[]string{"--bus-listen", "127.0.0.1:0", "--bus", "nats://127.0.0.1:4222"}, "give one"},
		{[]string{"--bus-creds", "/nonexistent"}, "need --bus-listen or --bus"},
		{[]string{"--bus", "nats://127.0.0.1:1", "--bus-creds", open}, "chmod 600"},
		{[]string{"--bus", "nats://127.0.0.1:1", "--bus-creds", private, "--bus-name", "alice"}, "its user's, bob"},
	} {
		err := run(env, c.args...)
		if exitCode(err) != ExitInput || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "pw-7731") {
			t.Errorf("serve %v: %v (status %d); want status 2 saying %q", c.args, err, exitCode(err), c.says)
		}
	}

	url := bustest.NatsServer(t)
	var reqs modeltest.Requests
	sb, err := sandbox.Start(sandbox.Config{Now: modeltest.Clock, PerSecond: -1, Logger: reqs.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	withCreds := func() map[string]string {
		e := homeEnv(t)
		e[envClientID], e[envClientSecret], e[envAuthURL], e[envBaseURL] = sandbox.DemoClientID, sb.DemoSecret, sb.AuthURL, sb.BaseURL
		return e
	}
	startServe(t, withCreds(), "--bus", url, "--bus-name", "first")
	envSecond := withCreds()
	traderKey(t, envSecond)
	err = run(envSecond, "--bus", url, "--bus-name", "second")
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "already has a source: first") {
		t.Fatalf("a second source: %v (status %d)", err, exitCode(err))
	}
	if strings.Contains(err.Error(), sb.DemoSecret) {
		t.Fatal("the refusal holds the service's secret")
	}
}
