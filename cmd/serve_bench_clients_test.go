package cmd

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// clientsEnv, set, makes this test binary BenchmarkServeSessions's
// clients instead of running tests: its value is the settings, one
// key=value a line (addr, key: the ed25519 seed in hex, host: the host's
// public key, size: WxH, n: how many screens).
const clientsEnv = "CHAINWATCH_BENCH_SSH_CLIENTS"

// benchClientWait bounds every wait of the clients: the connection, the
// first ladder.
const benchClientWait = 60 * time.Second

// runClients opens n screens on the server and reads everything sent to
// them. It says "ready" once every screen shows its ladder; a line on
// stdin marks the window's start, the next its end; at the end of stdin it
// says how many bytes the screens received in the window, and closes them.
func runClients(spec string) int {
	set := map[string]string{}
	for _, kv := range strings.Split(spec, "\n") {
		k, v, _ := strings.Cut(kv, "=")
		set[k] = v
	}
	if err := clients(set); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func clients(set map[string]string) error {
	n, err := strconv.Atoi(set["n"])
	if err != nil || n < 1 || n > 100 {
		return fmt.Errorf("n=%q: want 1 to 100 screens", set["n"])
	}
	var w, h int
	if _, err := fmt.Sscanf(set["size"], "%dx%d", &w, &h); err != nil {
		return fmt.Errorf("size=%q: %v", set["size"], err)
	}
	seed, err := hex.DecodeString(set["key"])
	if err != nil || len(seed) != ed25519.SeedSize {
		return errors.New("key: want an ed25519 seed in hex")
	}
	signer, err := gossh.NewSignerFromKey(ed25519.NewKeyFromSeed(seed))
	if err != nil {
		return err
	}
	host, _, _, _, err := gossh.ParseAuthorizedKey([]byte(set["host"]))
	if err != nil {
		return fmt.Errorf("host: %v", err)
	}
	cfg := &gossh.ClientConfig{User: "trader", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.FixedHostKey(host), Timeout: benchClientWait}
	var received atomic.Int64
	screens := make([]*benchScreen, n)
	for i := range screens {
		s, err := openBenchScreen(set["addr"], cfg, w, h, &received)
		if err != nil {
			return fmt.Errorf("screen %d: %w", i+1, err)
		}
		defer s.close()
		screens[i] = s
	}
	for i, s := range screens {
		select {
		case <-s.ladder:
		case <-time.After(benchClientWait):
			return fmt.Errorf("screen %d showed no ladder in %s", i+1, benchClientWait)
		}
	}
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	var start, end int64
	if in.Scan() {
		start = received.Load()
	}
	if in.Scan() {
		end = received.Load()
	}
	for in.Scan() {
	}
	fmt.Println(max(end-start, 0))
	return nil
}

// benchScreen is one screen session, read to its end by its own goroutine.
type benchScreen struct {
	conn   *gossh.Client
	sess   *gossh.Session
	ladder chan struct{} // closed once the screen shows an expiry tab
	done   sync.WaitGroup
}

func openBenchScreen(addr string, cfg *gossh.ClientConfig, w, h int, received *atomic.Int64) (*benchScreen, error) {
	conn, err := gossh.Dial("tcp", addr, cfg)
	if err != nil {
		return nil, err
	}
	sess, err := conn.NewSession()
	if err == nil {
		err = sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{})
	}
	var out io.Reader
	if err == nil {
		out, err = sess.StdoutPipe()
	}
	if err == nil {
		err = sess.Shell()
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	s := &benchScreen{conn: conn, sess: sess, ladder: make(chan struct{})}
	s.done.Go(func() {
		var seen bytes.Buffer // until the ladder shows, at most 8 MB
		shown := false
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			received.Add(int64(n))
			if !shown && seen.Len() < 8<<20 {
				seen.Write(buf[:n])
				if ladder.MatchString(ansi.Strip(seen.String())) {
					shown, seen = true, bytes.Buffer{}
					close(s.ladder)
				}
			}
			if err != nil {
				return
			}
		}
	})
	return s, nil
}

func (s *benchScreen) close() {
	s.sess.Close()
	s.conn.Close()
	s.done.Wait()
}
