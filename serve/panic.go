package serve

import (
	"fmt"
	"strings"

	"charm.land/ssh"

	"chainwatch/crash"
)

// What a trader whose session panicked is told, on the restored terminal,
// before the channel closes; the details are in the server's log only.
const panicNotice = "chainwatch serve: an internal error ended this session; it is in the server's log. Log in again to carry on.\r\n"

// exitPanic is a panicked session's exit status (the command line's
// ExitInternal, sysexits.h's EX_SOFTWARE).
const exitPanic = 70

// guardScreen is a session's model behind a crash.Guard, so that a panic
// in it (its Update, its View, its commands) ends that session only, and
// the func that releases it, which recovers its own panic: the model may
// be half changed.
func (s *Server) guardScreen(sess ssh.Session, u User) (*crash.Guard, func()) {
	model, done := s.o.Screen(u)
	return crash.New(model), func() {
		defer s.recoverSession(sess, u, "closing the screen")
		done()
	}
}

// screenPanicked logs the panic that ended a session's screen, with its
// key, stack, last messages and size, and tells the trader; false when
// the screen ended without one.
func (s *Server) screenPanicked(sess ssh.Session, u User, g *crash.Guard) bool {
	c := g.Crash()
	if c == nil {
		return false
	}
	s.log.Error("session panicked", "key", u.Name, "fingerprint", u.Fingerprint, "remote", sess.RemoteAddr().String(),
		"in", c.Where, "panic", c.Value, "size", fmt.Sprintf("%dx%d", c.Width, c.Height),
		"last", strings.Join(c.Last, "; "), "stack", string(c.Stack))
	fmt.Fprint(sess, panicNotice)
	return true
}

// recoverSession, deferred in a session's handler, recovers a panic
// outside the screen's Guard (the screen's constructor or its release, an
// exec request's command): it is logged with the key and the stack, the
// trader told, and the session closed, while every other session goes on.
func (s *Server) recoverSession(sess ssh.Session, u User, where string) {
	r := recover()
	if r == nil {
		return
	}
	p := crash.Recovered(where, r)
	s.log.Error("session panicked", "key", u.Name, "fingerprint", u.Fingerprint, "remote", sess.RemoteAddr().String(),
		"in", p.Where, "panic", p.Value, "stack", string(p.Stack))
	fmt.Fprint(sess.Stderr(), panicNotice)
	sess.Exit(exitPanic)
}
