package serve

import (
	"errors"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	bm "charm.land/wish/v2/bubbletea"
)

// screen runs a session's program until the trader quits, the client goes
// away, the screen idles past the timeout or the server stops; the last
// two are said on the restored terminal. The program runs on its own
// goroutine and the session waits for whichever comes first: a program
// that does not end when asked (quitGrace), nor when killed, is left
// behind, and its session still ends and frees its place.
func (s *Server) screen(sess ssh.Session, ss *session, u User, sizes *resizer) string {
	pty, _, _ := sess.Pty()
	cols, rows, ok := boundWindow(pty.Window)
	if !ok {
		cols, rows = defaultCols, defaultRows
	}
	first := sizes.newest(tea.WindowSizeMsg{Width: cols, Height: rows}) // the pty's size may be older
	cols, rows = first.Width, first.Height
	model, done := s.guardScreen(sess, u)
	defer done()
	idle := make(chan struct{})
	var idleOnce sync.Once
	var idleTimer *time.Timer
	if s.o.IdleTimeout > 0 {
		idleTimer = time.AfterFunc(s.o.IdleTimeout, func() { idleOnce.Do(func() { close(idle) }) })
		defer idleTimer.Stop()
	}
	p := tea.NewProgram(pace(model, FrameWait), append(bm.MakeOptions(sess), tea.WithWindowSize(cols, rows),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			switch msg := msg.(type) {
			case tea.WindowSizeMsg:
				return sizes.newest(msg)
			case tea.SuspendMsg:
				return tea.ResumeMsg{} // there is no shell to suspend to (wish's own filter)
			case tea.KeyPressMsg, tea.MouseClickMsg, tea.MouseWheelMsg, tea.PasteMsg:
				if idleTimer != nil {
					idleTimer.Reset(s.o.IdleTimeout)
				}
			}
			return msg
		}))...)
	model.Bind(p)
	ended := make(chan struct{})
	go sizes.send(p, ended)
	go func() {
		defer close(ended)
		if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
			s.log.Warn("a screen's program ended with an error", "key", u.Name, "error", err)
		}
	}()

	why := "quit"
	select {
	case <-ended:
	case <-sess.Context().Done():
		why = "client gone"
	case <-idle:
		why = "idle"
	case <-ss.stopped:
		why = "server stopping"
	}
	if why != "quit" && !s.endProgram(p, ended) {
		s.log.Warn("a screen's program did not end when asked nor when killed: its session is closed without it", "key", u.Name)
	}
	code := 0
	if s.screenPanicked(sess, u, model) {
		why, code = "panic", exitPanic
	}
	switch why {
	case "server stopping":
		fmt.Fprint(sess, "chainwatch serve is shutting down: session closed\r\n")
	case "idle":
		fmt.Fprintf(sess, "chainwatch serve: no key pressed for %s: session closed\r\n", s.o.IdleTimeout)
	}
	sess.Exit(code)
	return why
}

// quitGrace is how long a screen's program has to end once asked (it
// restores the terminal), and again once killed, before it is left.
const quitGrace = 3 * time.Second

// endProgram asks p to quit, then kills it; it reports whether p ended.
// Neither waits on p itself: Quit waits for p's loop to take it, which a
// wedged program never does.
func (s *Server) endProgram(p *tea.Program, ended <-chan struct{}) bool {
	go p.Quit()
	select {
	case <-ended:
		return true
	case <-time.After(quitGrace):
	}
	go p.Kill()
	select {
	case <-ended:
		return true
	case <-time.After(quitGrace):
		return false
	}
}
