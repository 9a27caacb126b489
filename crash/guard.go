// Package crash keeps a bug from taking the trader's terminal with it. A
// Guard wraps the screen's root model: a panic in its Init, Update or
// View, or in a command it returned, is recovered there, the program quits
// the ordinary way (so bubbletea restores the terminal), and what is known
// of the panic (its value and stack, the last messages, the terminal's
// size) is kept as a Crash for a report (report.go) or a server's log.
// A Relay (relay.go) does the same for the goroutines that feed the screen
// from outside the program (the data monitor's fetches and timers).
//
// bubbletea recovers panics too, but prints them to the process's stderr
// (the server's, in chainwatch serve, not the session's), in several
// lines, and knows nothing of the session, its key or its last messages:
// the Guard catches them first.
package crash

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/text"
)

// Crash is one recovered panic, as a report or a log line tells it.
type Crash struct {
	Time  time.Time
	Where string // Init, Update, View, a command, or the Relay's name for its goroutines
	Value string // the panic's value, on one line, cut at maxValue
	Stack []byte // the panicking goroutine's stack
	Last  []string
	// Width and Height are the terminal's size when it panicked (the
	// last window size the model was told); 0 before any.
	Width, Height int
}

// maxValue bounds the panic's value in a report or a log line.
const maxValue = 500

// Panic is a panic recovered outside the program's event loop, on its way
// to the Guard (Fail) or a log.
type Panic struct {
	Where string
	Value string
	Stack []byte
}

// Recovered turns what recover returned into a Panic; call it in the
// deferred function itself, so the stack is still the panicking one.
func Recovered(where string, r any) Panic {
	return Panic{Where: where, Value: text.OneLine(fmt.Sprint(r), maxValue), Stack: debug.Stack()}
}

// Guard is the program's model: it hands every message to the model it
// wraps and keeps the last ones (ring.go). Once a panic is recovered the
// wrapped model is not called again: its state may be half changed.
type Guard struct {
	inner tea.Model
	last  ring
	w, h  int
	quit  func()        // the program's Quit; nil before Bind
	send  func(tea.Msg) // the program's Send; nil before Bind
	crash *Crash        // the first panic; written on the event loop only
}

// failedMsg carries a panic recovered in a command or another goroutine
// to the event loop, where the Guard records it with the last messages.
type failedMsg struct{ p Panic }

// New wraps m.
func New(m tea.Model) *Guard { return &Guard{inner: m} }

// Bind gives the Guard its program, so that a panic in View (which can
// return no command) still ends it, and Fail can reach it. Call it before
// the program runs.
func (g *Guard) Bind(p *tea.Program) { g.quit, g.send = p.Quit, p.Send }

// Crash is the panic that ended the program, or nil. Read it once the
// program's Run has returned.
func (g *Guard) Crash() *Crash { return g.crash }

// Fail ends the program for a panic recovered in a goroutine of its feed
// (a Relay's handler). It does not wait for the event loop.
func (g *Guard) Fail(p Panic) {
	if g.send != nil {
		go g.send(failedMsg{p})
	}
}

// Init starts the wrapped model.
func (g *Guard) Init() (cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			g.Record(Recovered("Init", r))
			cmd = tea.Quit
		}
	}()
	return g.wrap(g.inner.Init())
}

// Update records msg and hands it on, unless a panic ended the model.
func (g *Guard) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f, ok := msg.(failedMsg); ok {
		g.Record(f.p)
	}
	if g.crash != nil {
		return g, tea.Quit
	}
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		g.w, g.h = s.Width, s.Height
	}
	g.last.add(msg)
	return g, g.update(msg)
}

func (g *Guard) update(msg tea.Msg) (cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			g.Record(Recovered("Update", r))
			cmd = tea.Quit
		}
	}()
	m, c := g.inner.Update(msg)
	g.inner = m
	return g.wrap(c)
}

// View draws the wrapped model; after a panic, nothing, so that the
// terminal is left as it was before the screen.
func (g *Guard) View() (v tea.View) {
	if g.crash != nil {
		return tea.View{}
	}
	defer func() {
		if r := recover(); r != nil {
			g.Record(Recovered("View", r))
			if g.quit != nil {
				go g.quit() // Quit waits for the event loop, which is drawing
			}
			v = tea.View{}
		}
	}()
	return g.inner.View()
}

// Record keeps the first panic with the last messages and the size, and
// returns the Crash kept. It is called on the event loop, or once Run has
// returned (a panic bubbletea recovered itself).
func (g *Guard) Record(p Panic) *Crash {
	if g.crash == nil {
		g.crash = &Crash{Time: time.Now(), Where: p.Where, Value: p.Value, Stack: p.Stack,
			Last: g.last.lines(), Width: g.w, Height: g.h}
	}
	return g.crash
}

// cmdType is tea.Cmd's type, for opening tea.Sequence's message, a slice
// of commands whose type bubbletea does not export.
var cmdType = reflect.TypeFor[tea.Cmd]()

// wrap returns cmd recovering its own panic: bubbletea runs a command in a
// goroutine of its own, where only a recover in that goroutine sees it. A
// batch's or a sequence's commands are opened and wrapped in turn, since
// bubbletea runs them itself.
func (g *Guard) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = failedMsg{Recovered("a command", r)}
			}
		}()
		msg = cmd()
		switch m := msg.(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(m))
			for i, c := range m {
				out[i] = g.wrap(c)
			}
			return out
		}
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			out := reflect.MakeSlice(v.Type(), v.Len(), v.Len()) // the same unexported type
			for i := range v.Len() {
				c, _ := v.Index(i).Interface().(tea.Cmd)
				out.Index(i).Set(reflect.ValueOf(g.wrap(c)))
			}
			return out.Interface()
		}
		return msg
	}
}
