package serve

import (
	"sync"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
)

// A terminal's size as the screen is given it: what a client claims is
// bounded, so that a frame is never larger than a real terminal's (a
// 65535x65535 window would be four billion cells to draw).
const (
	maxCols = 1000
	maxRows = 1000
	// The size of a pty whose request says none (0x0): a terminal's.
	defaultCols, defaultRows = 80, 24
)

// boundWindow is w within 1..maxCols by 1..maxRows; ok is false for a
// size of nothing (a width or a height of 0), which a resize ignores.
func boundWindow(w ssh.Window) (cols, rows int, ok bool) {
	if w.Width <= 0 || w.Height <= 0 {
		return 0, 0, false
	}
	return min(w.Width, maxCols), min(w.Height, maxRows), true
}

// resizer hands a session's window changes to its program, only the
// latest one mattering. The SSH request loop sends a window-change on a
// channel of one and waits while it is full; drain takes every one at
// once, so the loop never waits on the program (nor, for a command run
// with a terminal, on nothing at all), and send gives the program the
// newest size when it is ready for it: a burst of a thousand changes is
// one or two redraws, never a thousand frames queued.
type resizer struct {
	mu     sync.Mutex
	latest [2]int
	known  bool          // latest holds a size
	fresh  bool          // latest is not yet sent
	wake   chan struct{} // one pending signal for send
}

func newResizer() *resizer {
	return &resizer{wake: make(chan struct{}, 1)}
}

// drain keeps the latest bounded size of winch until the request loop
// closes it (the channel's end): not the program's, which may end
// first, after which a client may still send window changes.
func (r *resizer) drain(winch <-chan ssh.Window) {
	for w := range winch {
		cols, rows, ok := boundWindow(w)
		if !ok {
			continue
		}
		r.mu.Lock()
		r.latest, r.known, r.fresh = [2]int{cols, rows}, true, true
		r.mu.Unlock()
		select {
		case r.wake <- struct{}{}:
		default: // send is already told
		}
	}
}

// newest is the newest size the client sent, else msg's: the program is
// given it in place of whatever size message it takes (its filter), so
// that its own first one (sent from a goroutine as it starts, in a race
// with send's) can never undo a newer size.
func (r *resizer) newest(msg tea.WindowSizeMsg) tea.WindowSizeMsg {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.known {
		return tea.WindowSizeMsg{Width: r.latest[0], Height: r.latest[1]}
	}
	return msg
}

// send gives p the newest size each time one came, until done closes. A
// program busy with a frame holds send, not drain.
func (r *resizer) send(p *tea.Program, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-r.wake:
		}
		r.mu.Lock()
		size, fresh := r.latest, r.fresh
		r.fresh = false
		r.mu.Unlock()
		if fresh {
			p.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]}) // returns once the program has ended
		}
	}
}

// emulatePty is charm.land/ssh's own pty handler (its default), which
// ptyGranted wraps: the terminal is the SSH channel itself.
var emulatePty = func() ssh.PtyHandler {
	var srv ssh.Server
	_ = ssh.EmulatePty()(&srv)
	return srv.PtyHandler
}()

// ptyGranted runs on the SSH request loop as a pty-req is granted: the
// session's window changes are taken from then on, before the shell or
// exec request that starts its handler (a window-change sent before it
// would otherwise hold the loop, and the request behind it, for good),
// and whatever the session turns out to be: a command run with a
// terminal is never read its sizes.
func (s *Server) ptyGranted(ctx ssh.Context, sess ssh.Session, pty ssh.Pty) (func() error, error) {
	closer, err := emulatePty(ctx, sess, pty)
	if err != nil {
		return closer, err
	}
	_, winch, _ := sess.Pty()
	r := newResizer()
	s.sizes.Store(sess, r)
	go func() {
		r.drain(winch)
		s.sizes.CompareAndDelete(sess, r) // the channel ended, handled or not
	}()
	return closer, nil
}

// resizerOf is the resizer of sess, taken by its handler; a session
// without a terminal has one that is never told a size.
func (s *Server) resizerOf(sess ssh.Session) *resizer {
	if r, ok := s.sizes.Load(sess); ok {
		return r.(*resizer)
	}
	return newResizer()
}
