package serve_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/serve"
)

// sizeScreen is a session's model that keeps every window size it is
// sent, in order, where the test can read them, and quits on "q"; on "w"
// it wedges (its Update does not return) until the test ends.
type sizeScreen struct{ seen *sizes }

type sizes struct {
	mu     sync.Mutex
	list   [][2]int
	wedged chan struct{} // closed when the test ends: a wedged Update returns
}

func (s *sizes) add(w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, [2]int{w, h})
}

func (s *sizes) get() [][2]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.list)
}

func (m sizeScreen) Init() tea.Cmd { return nil }

func (m sizeScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.seen.add(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "q":
			return m, tea.Quit
		case "w":
			<-m.seen.wedged
		}
	}
	return m, nil
}

func (m sizeScreen) View() tea.View {
	return tea.NewView(fmt.Sprintf("sizes seen: %d", len(m.seen.get())))
}

// startServer is serve.New on 127.0.0.1 with one authorized key, whose
// screens are sizeScreens keeping their sizes in seen.
func startServer(t *testing.T, seen *sizes) (addr string, key gossh.Signer, host gossh.PublicKey) {
	t.Helper()
	return startServerWith(t, seen, serve.Options{})
}

// startServerWith is startServer with o's limits.
func startServerWith(t *testing.T, seen *sizes, o serve.Options) (addr string, key gossh.Signer, host gossh.PublicKey) {
	t.Helper()
	seen.wedged = make(chan struct{})
	t.Cleanup(func() { close(seen.wedged) }) // after the server's stop: cleanups run last first
	dir := t.TempDir()
	hk, _, err := serve.HostKey(filepath.Join(dir, "state", "host_key"))
	if err != nil {
		t.Fatal(err)
	}
	if o.AuthorizedKeys == "" { // else the test's own file and keys
		key = newKey(t)
		o.AuthorizedKeys = filepath.Join(dir, "authorized_keys")
		writeKeys(t, o.AuthorizedKeys, authorizedLine(key, "alice@desk"))
	}
	o.HostKey = hk
	o.Screen = func(serve.User) (tea.Model, func()) { return sizeScreen{seen}, func() {} }
	if o.Exec == nil {
		o.Exec = func(context.Context, serve.User, []string, io.Reader, io.Writer, io.Writer) int { return 0 }
	}
	srv, err := serve.New(o)
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
		case err := <-done:
			if err != nil {
				t.Errorf("Serve returned %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("the server did not stop within 20s")
		}
	})
	return ln.Addr().String(), key, hk.PublicKey()
}

func newKey(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// authorizedLine is key's authorized_keys line, options (if any) before
// it and comment after.
func authorizedLine(key gossh.Signer, comment string, options ...string) string {
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(key.PublicKey()))) + " " + comment
	if len(options) > 0 {
		line = strings.Join(options, ",") + " " + line
	}
	return line
}

func writeKeys(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// waitSeen polls (every 20 ms, 15 s at most) until the screen has been
// sent the size want.
func waitSeen(t *testing.T, seen *sizes, want [2]int) {
	t.Helper()
	for range 750 {
		if slices.Contains(seen.get(), want) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the screen was never sent %dx%d; it was sent %v", want[0], want[1], seen.get())
}

// A trader who resizes their terminal while the session starts, and
// again while it runs, races nothing (charm.land/ssh's window-change
// wrote the pty's size while the session's handler copied it: the
// patch in third_party/ssh/CHAINWATCH.md), and the screen is sent sizes
// the client sent, in the order it sent them, ending with the last: a
// burst is coalesced (only the latest size matters), so some in between
// may never reach it. Its first size is one the client asked for, never
// a width of one and a height of another.
//
// The client is x/crypto/ssh's, on a session channel of its own rather
// than its Session, whose Shell waits for the server's reply: the
// window-changes follow the shell request without waiting, as a
// terminal's do when its window is dragged as the session opens, so
// the server's request loop takes the first while the handler starts
// (Pty's copy then races its write, under -race, on every run).
func TestServeResizeWhileStartingAndRunning(t *testing.T) {
	seen := &sizes{}
	addr, key, host := startServer(t, seen)
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "trader", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.FixedHostKey(host), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	exit := make(chan uint32, 1)
	go func() {
		for req := range reqs {
			var st struct{ Status uint32 }
			if req.Type == "exit-status" && gossh.Unmarshal(req.Payload, &st) == nil {
				exit <- st.Status
			}
			req.Reply(false, nil)
		}
		close(exit)
	}()
	go io.Copy(io.Discard, ch) // the screen's frames; EOF when the session ends

	// Width and height both differ from one size to the next, so a copy
	// torn between two window-changes is a size the client never sent.
	size := func(i int) [2]int { return [2]int{80 + i, 24 + i} }
	sent := [][2]int{size(0)}
	pty := struct {
		Term                         string
		Columns, Rows, Width, Height uint32
		Modes                        string
	}{"xterm-256color", uint32(size(0)[0]), uint32(size(0)[1]), 0, 0, "\x00"}
	if ok, err := ch.SendRequest("pty-req", true, gossh.Marshal(&pty)); !ok || err != nil {
		t.Fatalf("pty-req: %v, %v", ok, err)
	}
	if _, err := ch.SendRequest("shell", false, nil); err != nil {
		t.Fatal(err)
	}
	resize := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			win := struct{ Columns, Rows, Width, Height uint32 }{uint32(size(i)[0]), uint32(size(i)[1]), 0, 0}
			if _, err := ch.SendRequest("window-change", false, gossh.Marshal(&win)); err != nil {
				t.Fatalf("window-change %d: %v", i, err)
			}
			sent = append(sent, size(i))
		}
	}
	resize(1, 41) // behind the shell request: the handler is starting the screen
	waitSeen(t, seen, size(40))
	resize(41, 81) // the screen runs
	waitSeen(t, seen, size(80))

	// The program's own first size (the pty's when it started) may come
	// anywhere among those sent on; the others are the client's, in order.
	got := seen.get()
	inOrder := func(list [][2]int) bool {
		at := 0
		for _, sz := range list {
			i := slices.Index(sent[at:], sz)
			if i < 0 {
				return false
			}
			at += i
		}
		return true
	}
	ok := false
	for i := range got {
		if slices.Contains(sent[:41], got[i]) && inOrder(slices.Delete(slices.Clone(got), i, i+1)) {
			ok = true
			break
		}
	}
	if !ok || got[len(got)-1] != size(80) {
		t.Fatalf("the screen was sent %v; the client sent %v: want some of them in order, the last last, and a start among the first 41", got, sent)
	}
	if _, err := io.WriteString(ch, "q"); err != nil {
		t.Fatal(err)
	}
	select {
	case st, ok := <-exit:
		if !ok || st != 0 {
			t.Fatalf("the session ended with exit status %d (sent: %v), want 0", st, ok)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the session did not end within 15s of q")
	}
}
