// Package serve is `chainwatch serve`: the watch screen over SSH (wish),
// one session per trader, their keys from an authorized_keys file, and
// one data monitor behind them all, so that a feed several traders show is
// fetched once and its points spent once. It knows nothing of the screen
// itself: the command hands it a constructor for a session's model and a
// runner for exec requests (`ssh HOST -- chain SPY --json`).
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/text"
)

// Options are a server's settings and the two things it serves.
type Options struct {
	HostKey        gossh.Signer
	AuthorizedKeys string        // the file of the public keys let in, read at every login
	MaxSessions    int           // sessions at once (screens and commands); 0: no limit
	IdleTimeout    time.Duration // a screen without a key pressed, or a connection without traffic, this long is closed; 0: never
	Log            *slog.Logger  // logins, refusals, sessions; nil: none
	// Screen is a session's model, and what to call once its program has
	// ended (the subscription to the shared monitor is left there).
	Screen func(u User) (tea.Model, func())
	// Admit, when set, is asked before a session of u opens; an error
	// refuses it (logged; the client is told to ask the desk).
	Admit func(u User) error
	// Exec runs an exec request's command line and returns its exit
	// status; ctx ends when the client goes away or the server stops.
	Exec func(ctx context.Context, u User, args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// Server is an SSH server of chainwatch's screen.
type Server struct {
	o   Options
	srv *ssh.Server
	log *slog.Logger

	mu       sync.Mutex
	sessions map[*session]struct{}
	// sizes are the resizers of sessions granted a terminal, from their
	// pty-req until their handler takes them (window.go).
	sizes   sync.Map
	closing bool
	wg      sync.WaitGroup // the sessions' handlers
}

// shutdownGrace is how long the sessions get to restore their terminals
// and say goodbye when the server stops, before the connections are cut.
const shutdownGrace = 5 * time.Second

type userKey struct{}

// MaxCommandLine is the longest exec request's command line: a headless
// command with its flags and a --jq is a few hundred bytes.
const MaxCommandLine = 4 << 10

// maxLogged is the most of a client's text (a command) a log line holds.
const maxLogged = 200

// New builds a server; Serve runs it.
func New(o Options) (*Server, error) {
	if o.HostKey == nil || o.Screen == nil || o.Exec == nil {
		return nil, errors.New("serve: a host key, a screen and an exec runner are required")
	}
	s := &Server{o: o, log: o.Log, sessions: map[*session]struct{}{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	keys := authorizedKeys{o.AuthorizedKeys}
	s.srv = &ssh.Server{
		Version:     "chainwatch",
		Handler:     s.handle,
		IdleTimeout: o.IdleTimeout,
		// Public keys only: with no password or keyboard-interactive
		// handler, the server offers neither method.
		PublicKeyHandler: func(ctx ssh.Context, key ssh.PublicKey) bool {
			ip := remoteIP(ctx.RemoteAddr())
			u, ok, refusal, err := keys.lookup(key, ip, time.Now())
			switch {
			case err != nil:
				s.log.Error("login refused: the authorized keys cannot be read", "error", err, "remote", ctx.RemoteAddr().String())
				return false
			case refusal != "":
				s.log.Warn("login refused: the key's line does not admit it", "fingerprint", gossh.FingerprintSHA256(key),
					"why", refusal, "user", ctx.User(), "remote", ctx.RemoteAddr().String())
				return false
			case !ok:
				s.log.Warn("login refused: key not authorized", "fingerprint", gossh.FingerprintSHA256(key),
					"type", key.Type(), "user", ctx.User(), "remote", ctx.RemoteAddr().String())
				return false
			}
			if ip.IsValid() {
				u.Addr = ip.String()
			}
			ctx.SetValue(userKey{}, u)
			return true
		},
		// A key whose line says no-pty (or restrict) gets no terminal, so
		// no screen: its commands run.
		PtyCallback: func(ctx ssh.Context, _ ssh.Pty) bool {
			u, _ := ctx.Value(userKey{}).(User)
			return !u.NoPty
		},
		PtyHandler: s.ptyGranted,
		ServerConfigCallback: func(ssh.Context) *gossh.ServerConfig {
			return &gossh.ServerConfig{AuthLogCallback: s.authLog}
		},
	}
	s.srv.AddHostKey(o.HostKey)
	return s, nil
}

// authLog logs a refused password or keyboard-interactive attempt (the
// server offers neither); a refused key is logged with its fingerprint
// where it is looked up.
// remoteIP is the client's address, unmapped (an IPv4 client on a
// dual-stack socket is matched as IPv4); the zero Addr when unknown.
func remoteIP(a net.Addr) netip.Addr {
	if t, ok := a.(*net.TCPAddr); ok {
		if ip, ok := netip.AddrFromSlice(t.IP); ok {
			return ip.Unmap()
		}
	}
	return netip.Addr{}
}

func (s *Server) authLog(conn gossh.ConnMetadata, method string, err error) {
	if err != nil && (method == "password" || method == "keyboard-interactive") {
		s.log.Warn("login refused: only public keys are accepted", "method", method, "user", conn.User(), "remote", conn.RemoteAddr().String())
	}
}

// Serve accepts sessions on ln until ctx ends (SIGTERM), then tells every
// session, restores its terminal, ends it with exit status 0 and returns
// nil. An error is the listener's.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(ln) }()
	select {
	case err := <-errc:
		if errors.Is(err, ssh.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.closing = true
	live := make([]*session, 0, len(s.sessions))
	for ss := range s.sessions {
		live = append(live, ss)
	}
	s.mu.Unlock()
	ln.Close() // no new sessions while the others end
	for _, ss := range live {
		ss.stop()
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(shutdownGrace):
		s.log.Warn("sessions still open after the grace period: closing their connections")
	}
	// The clients close their connections once their sessions have ended;
	// those that do not are cut.
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if s.srv.Shutdown(sctx) != nil {
		s.srv.Close()
	}
	<-errc
	return nil
}

// Sessions is how many sessions are open.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// session is one SSH session: a screen or a command, which stop ends
// (the screen's wait, the command's context).
type session struct {
	mu      sync.Mutex
	cancel  context.CancelFunc
	quit    bool          // asked to end before the command started
	stopped chan struct{} // closed by stop
	once    sync.Once
}

func (ss *session) stop() {
	ss.once.Do(func() { close(ss.stopped) })
	ss.mu.Lock()
	cancel := ss.cancel
	ss.quit = true
	ss.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// admit adds a session, or refuses it past MaxSessions or while closing.
func (s *Server) admit() (*session, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return nil, "chainwatch serve is shutting down; try again when it is back"
	case s.o.MaxSessions > 0 && len(s.sessions) >= s.o.MaxSessions:
		return nil, fmt.Sprintf("chainwatch serve: all %d sessions are in use; try again later", s.o.MaxSessions)
	}
	ss := &session{stopped: make(chan struct{})}
	s.sessions[ss] = struct{}{}
	s.wg.Add(1)
	return ss, ""
}

func (s *Server) leave(ss *session) {
	s.mu.Lock()
	delete(s.sessions, ss)
	s.mu.Unlock()
	s.wg.Done()
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// handle is one session: a command when the request names one, else the
// screen, which needs a terminal.
func (s *Server) handle(sess ssh.Session) {
	u, _ := sess.Context().Value(userKey{}).(User)
	sizes := s.resizerOf(sess)
	ss, refusal := s.admit()
	if ss == nil {
		s.log.Warn("session refused", "reason", refusal, "key", u.Name, "remote", sess.RemoteAddr().String())
		fmt.Fprint(sess.Stderr(), refusal+"\r\n")
		sess.Exit(1)
		return
	}
	defer s.leave(ss)
	defer s.recoverSession(sess, u, "the session's handler")
	if s.o.Admit != nil {
		if err := s.o.Admit(u); err != nil {
			s.log.Warn("session refused", "key", u.Name, "fingerprint", u.Fingerprint, "error", err)
			fmt.Fprint(sess.Stderr(), "chainwatch serve: this key's session cannot open: the desk's administrator will find why in the server's log\r\n")
			sess.Exit(1)
			return
		}
	}
	start := time.Now()
	if raw := sess.RawCommand(); len(raw) > MaxCommandLine {
		// Refused before it is split (a quadratic split of a long line held
		// a core for half a minute), and logged by its start only.
		s.log.Warn("command refused: too long", "key", u.Name, "bytes", len(raw), "start", text.OneLine(raw, maxLogged))
		fmt.Fprintf(sess.Stderr(), "chainwatch serve: the command line is %d bytes; the most is %d\r\n", len(raw), MaxCommandLine)
		sess.Exit(2) // a command line that is wrong: as a bad flag's
		return
	}
	if args := sess.Command(); len(args) > 0 {
		code := s.exec(sess, ss, u, args)
		s.log.Info("command ended", "key", u.Name, "command", text.OneLine(args[0], maxLogged), "status", code, "took", time.Since(start).Round(time.Millisecond))
		return
	}
	if _, _, ok := sess.Pty(); !ok {
		msg := "chainwatch serve: the screen needs a terminal (ssh -t HOST), or name a command: ssh HOST -- chain SPY --json\r\n"
		if u.NoPty {
			msg = "chainwatch serve: this key may not open a terminal (no-pty or restrict in authorized_keys), so no screen; name a command: ssh HOST -- chain SPY --json\r\n"
		}
		fmt.Fprint(sess.Stderr(), msg)
		sess.Exit(2)
		return
	}
	s.log.Info("screen opened", "key", u.Name, "fingerprint", u.Fingerprint, "remote", sess.RemoteAddr().String())
	why := s.screen(sess, ss, u, sizes)
	s.log.Info("screen closed", "key", u.Name, "why", why, "took", time.Since(start).Round(time.Second))
}

func (s *Server) exec(sess ssh.Session, ss *session, u User, args []string) int {
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	ss.mu.Lock()
	ss.cancel = cancel
	quit := ss.quit
	ss.mu.Unlock()
	code := 1
	if !quit {
		code = s.o.Exec(ctx, u, args, sess, sess, sess.Stderr())
	}
	sess.Exit(code)
	return code
}
