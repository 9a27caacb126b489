package serve_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"chainwatch/serve"
)

// The desk's limits under a hostile client: resize bursts, a wedged
// screen, a long command line.

// rawSession opens a session channel with a pty of cols x rows and asks
// for the shell without waiting for the reply, as a terminal does; its
// requests' replies and its output are drained.
func rawSession(t *testing.T, c *gossh.Client, cols, rows uint32) gossh.Channel {
	t.Helper()
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		t.Fatal(err)
	}
	go gossh.DiscardRequests(reqs)
	go io.Copy(io.Discard, ch)
	pty := struct {
		Term                         string
		Columns, Rows, Width, Height uint32
		Modes                        string
	}{"xterm-256color", cols, rows, 0, 0, "\x00"}
	if ok, err := ch.SendRequest("pty-req", true, gossh.Marshal(&pty)); !ok || err != nil {
		t.Fatalf("pty-req: %v, %v", ok, err)
	}
	if _, err := ch.SendRequest("shell", false, nil); err != nil {
		t.Fatal(err)
	}
	return ch
}

// dialKey logs in with key over a connection the test can cut (conn),
// as a killed client's is.
func dialKey(t *testing.T, addr string, key gossh.Signer, host gossh.PublicKey) (*gossh.Client, net.Conn, error) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, nil, err
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{User: "trader",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(key)}, HostKeyCallback: gossh.FixedHostKey(host), Timeout: 10 * time.Second})
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	c := gossh.NewClient(cc, chans, reqs)
	t.Cleanup(func() { c.Close() })
	return c, conn, nil
}

// loginWithin polls (every 100 ms, within 15 s) until a new login runs a
// command to its exit status 0: the desk has a place for it.
func loginWithin(t *testing.T, addr string, key gossh.Signer, host gossh.PublicKey) {
	t.Helper()
	var last string
	deadline := time.Now().Add(15 * time.Second)
	for range 150 {
		if time.Now().After(deadline) {
			break
		}
		c, _, err := dialKey(t, addr, key, host)
		if err == nil {
			sess, serr := c.NewSession()
			if serr == nil {
				out, rerr := sess.CombinedOutput("version")
				if rerr == nil {
					c.Close()
					return
				}
				last = fmt.Sprintf("%v: %q", rerr, out)
			} else {
				last = serr.Error()
			}
			c.Close()
		} else {
			last = err.Error()
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no new login ran a command within 15s; the last try: %s", last)
}

// The burst: about 1,000 window changes, sizes from 0x0 to
// 65535x65535, sent without waiting, then the client killed. The screen
// is only ever sent bounded sizes (1..1000 each way, 0x0 ignored), the
// newest last; and under --max-sessions 1 a new login gets the place
// back once the client is gone (bounded wait, not a timing of speed).
func TestServeResizeBurstThenLoginAgain(t *testing.T) {
	seen := &sizes{}
	addr, key, host := startServerWith(t, seen, serve.Options{MaxSessions: 1})
	c, conn, err := dialKey(t, addr, key, host)
	if err != nil {
		t.Fatal(err)
	}
	ch := rawSession(t, c, 65535, 65535)
	const n = 1000
	for i := range n {
		// Every size from nothing to the most a uint16 says, in a spread
		// order: 0x0, huge, small, and widths and heights apart.
		w, h := uint32(i*65535/(n-1)), uint32((n-1-i)*65535/(n-1))
		if i%3 == 0 {
			w, h = uint32(i%7), uint32(i%5)
		}
		win := struct{ Columns, Rows, Width, Height uint32 }{w, h, 0, 0}
		if _, err := ch.SendRequest("window-change", false, gossh.Marshal(&win)); err != nil {
			t.Fatalf("window-change %d: %v", i, err)
		}
	}
	// The newest, apart from every size before it: 65535 wide is the
	// screen's 1000, and no size of the burst is 777 high.
	win := struct{ Columns, Rows, Width, Height uint32 }{65535, 777, 0, 0}
	if _, err := ch.SendRequest("window-change", false, gossh.Marshal(&win)); err != nil {
		t.Fatal(err)
	}
	want := [2]int{1000, 777}
	waitSeen(t, seen, want)
	for _, sz := range seen.get() {
		if sz[0] < 1 || sz[0] > 1000 || sz[1] < 1 || sz[1] > 1000 {
			t.Fatalf("the screen was sent %dx%d: want 1..1000 each way", sz[0], sz[1])
		}
	}
	if got := seen.get(); got[len(got)-1] != want {
		t.Fatalf("the screen's last size is %v, want the newest, %v (all: %v)", got[len(got)-1], want, got)
	}
	conn.Close() // killed: no goodbye
	loginWithin(t, addr, key, host)
}

// A screen whose program wedges (an Update that never returns) is not
// the desk's for good: once its client goes, the session ends and frees
// its place under --max-sessions 1, the program left behind.
func TestServeWedgedScreenFreesItsPlace(t *testing.T) {
	seen := &sizes{}
	addr, key, host := startServerWith(t, seen, serve.Options{MaxSessions: 1})
	c, conn, err := dialKey(t, addr, key, host)
	if err != nil {
		t.Fatal(err)
	}
	ch := rawSession(t, c, 80, 24)
	waitSeen(t, seen, [2]int{80, 24})
	if _, err := io.WriteString(ch, "w"); err != nil {
		t.Fatal(err)
	}
	for i := range 50 { // resizes the wedged program cannot take
		win := struct{ Columns, Rows, Width, Height uint32 }{uint32(81 + i), 25, 0, 0}
		if _, err := ch.SendRequest("window-change", false, gossh.Marshal(&win)); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close()
	loginWithin(t, addr, key, host)
}

// An exec request's command line past serve.MaxCommandLine is refused
// before it is split (exit status 2, at once: bounded wait), and the log
// holds at most 200 characters of it.
func TestServeRefusesALongCommandLine(t *testing.T) {
	var log syncBuffer
	seen := &sizes{}
	var ran atomic.Bool
	addr, key, host := startServerWith(t, seen, serve.Options{Log: slog.New(slog.NewTextHandler(&log, nil)),
		Exec: func(context.Context, serve.User, []string, io.Reader, io.Writer, io.Writer) int {
			ran.Store(true)
			return 0
		}})
	c, _, err := dialKey(t, addr, key, host)
	if err != nil {
		t.Fatal(err)
	}
	line := "chain " + strings.Repeat("SPY", 130<<10/3)
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	res := make(chan error, 1)
	var out bytes.Buffer
	sess.Stderr = &out
	go func() { res <- sess.Run(line) }()
	select {
	case err = <-res:
	case <-time.After(3 * time.Second):
		t.Fatal("a 130 kB command line was not refused within 3s")
	}
	var exit *gossh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 2 || !strings.Contains(out.String(), "the most is 4096") || ran.Load() {
		t.Fatalf("a 130 kB command line: %v, %q (ran: %v); want exit status 2 and the limit", err, out.String(), ran.Load())
	}
	for _, l := range strings.Split(log.String(), "\n") {
		if len(l) > 600 {
			t.Fatalf("a log line of %d characters: %.300s...", len(l), l)
		}
	}
	if !strings.Contains(log.String(), "too long") {
		t.Fatalf("the refusal is not logged: %s", log.String())
	}
}

// syncBuffer is a log the server's goroutines write while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Window changes sent after the pty-req and before the exec request that
// starts the session, and while a command run with a terminal writes a
// megabyte, hold nothing: the exec request is answered and the command's
// output all arrives, with its exit status (bounded waits).
func TestServeResizesAroundACommandWithATerminal(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	addr, key, host := startServerWith(t, &sizes{}, serve.Options{
		Exec: func(_ context.Context, _ serve.User, _ []string, _ io.Reader, out, _ io.Writer) int {
			io.WriteString(out, big)
			return 0
		}})
	c, _, err := dialKey(t, addr, key, host)
	if err != nil {
		t.Fatal(err)
	}
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		t.Fatal(err)
	}
	exit := make(chan uint32, 1)
	go func() {
		for req := range reqs {
			var st struct{ Status uint32 }
			if req.Type == "exit-status" && gossh.Unmarshal(req.Payload, &st) == nil {
				exit <- st.Status
			}
			req.Reply(false, nil)
		}
	}()
	pty := struct {
		Term                         string
		Columns, Rows, Width, Height uint32
		Modes                        string
	}{"xterm", 80, 24, 0, 0, "\x00"}
	if ok, err := ch.SendRequest("pty-req", true, gossh.Marshal(&pty)); !ok || err != nil {
		t.Fatalf("pty-req: %v, %v", ok, err)
	}
	resize := func(n int) {
		for i := range n {
			win := struct{ Columns, Rows, Width, Height uint32 }{uint32(81 + i), 25, 0, 0}
			if _, err := ch.SendRequest("window-change", false, gossh.Marshal(&win)); err != nil {
				t.Fatal(err)
			}
		}
	}
	resize(50)
	answered := make(chan bool, 1)
	go func() {
		ok, _ := ch.SendRequest("exec", true, gossh.Marshal(&struct{ Command string }{"chain SPY"}))
		answered <- ok
	}()
	select {
	case ok := <-answered:
		if !ok {
			t.Fatal("the exec request was refused")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the exec request behind 50 window changes was not answered within 10s")
	}
	resize(50)
	got := make(chan int, 1)
	go func() {
		n, _ := io.Copy(io.Discard, ch)
		got <- int(n)
	}()
	select {
	case n := <-got:
		if n != len(big) {
			t.Fatalf("the command's output: %d bytes, want %d", n, len(big))
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the command's output did not all arrive within 15s")
	}
	select {
	case st := <-exit:
		if st != 0 {
			t.Fatalf("exit status %d", st)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no exit status within 15s")
	}
}
