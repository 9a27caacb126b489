package cmd

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/config"
	"chainwatch/crash"
	"chainwatch/feed"
)

// crashError is the screen ended by a panic (a bug): the terminal was
// restored and a report written (or why not). Its text is the one line
// the process ends with; its exit status is ExitInternal.
type crashError struct {
	path string
	err  error // the report could not be written
}

func (e crashError) Error() string {
	if e.err != nil {
		return fmt.Sprintf("an internal error ended the screen, and no crash report could be written (%v)", e.err)
	}
	return "an internal error ended the screen; the crash report is " + e.path
}

// screenRun is how runScreen runs a model: the program's options (a test
// gives a pty's ends), where reports go, and the relay of the monitor's
// goroutines' panics.
type screenRun struct {
	opts   []tea.ProgramOption
	getenv func(string) string
	relay  *crash.Relay // nil: none to take
}

// runScreen runs m in a program behind a crash.Guard until the user
// quits. A panic anywhere in the screen (its model, its commands, the
// monitor's goroutines through the relay) ends the program the ordinary
// way, which restores the terminal, and then writes a report under the
// state directory.
func runScreen(m tea.Model, r screenRun) error {
	g := crash.New(m)
	p := tea.NewProgram(g, r.opts...)
	g.Bind(p)
	if r.relay != nil {
		r.relay.Handle(g.Fail)
		defer r.relay.Handle(nil)
	}
	_, err := p.Run()
	c := g.Crash()
	if c == nil && errors.Is(err, tea.ErrProgramPanic) {
		// Outside the Guard (bubbletea's own code): bubbletea restored
		// the terminal and printed the stack on stderr.
		c = g.Record(crash.Panic{Where: "bubbletea", Value: "recovered by bubbletea, which printed its stack on stderr"})
	}
	if c == nil {
		if errors.Is(err, tea.ErrInterrupted) {
			return nil
		}
		return err
	}
	dir, derr := config.UserStateDir(r.getenv)
	if derr != nil {
		return crashError{err: derr}
	}
	path, werr := crash.Write(crash.Dir(dir), c, buildInfo())
	return crashError{path: path, err: werr}
}

// crashCleanup is how long the monitor is given to stop after a crash.
const crashCleanup = 2 * time.Second

// stopAfter stops the screen's monitor and rules once the screen ended
// with err. After a crash it is not waited on for longer than
// crashCleanup: the panic may have been inside the monitor, with its lock
// held, and the process must still exit with its line.
func stopAfter(err error, stop func()) {
	if !errors.As(err, new(crashError)) {
		stop()
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = recover() }() // half-changed state: a second panic ends nothing more
		stop()
	}()
	select {
	case <-done:
	case <-time.After(crashCleanup):
	}
}

// buildInfo is the version line and the commit this binary was built
// from, for a crash report.
func buildInfo() crash.Build {
	b := crash.Build{Version: version(), Commit: "unknown (the build did not record it)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	var rev, at, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		b.Commit = rev
		if at != "" {
			b.Commit += " (" + at + ")"
		}
		if modified == "true" {
			b.Commit += ", with uncommitted changes"
		}
	}
	return b
}

// relayClock is a monitor's clock whose timers recover their panics
// through a relay.
type relayClock struct {
	feed.Clock
	r *crash.Relay
}

func (c relayClock) AfterFunc(d time.Duration, f func()) feed.Stopper {
	return c.Clock.AfterFunc(d, c.r.Wrap(f))
}

// guardMonitor makes the monitor's fetches and timers recover their
// panics through r (nil: as they are).
func guardMonitor(o feed.MonitorOptions, r *crash.Relay) feed.MonitorOptions {
	if r == nil {
		return o
	}
	if o.Clock == nil {
		o.Clock = feed.RealClock{}
	}
	o.Clock, o.Spawn = relayClock{o.Clock, r}, r.Go
	return o
}

// logPanics sends the panics of serve's monitor's goroutines to the
// server's log: the monitor is the desk's, no session's to end.
func logPanics(w *WatchOptions, log *slog.Logger) {
	if w.Panics == nil {
		w.Panics = monitorRelay()
	}
	w.Panics.Handle(func(p crash.Panic) {
		log.Error("the data monitor panicked", "in", p.Where, "panic", p.Value, "stack", string(p.Stack))
	})
}

// monitorRelay is a relay for the monitor's goroutines.
func monitorRelay() *crash.Relay { return &crash.Relay{Name: "the data monitor"} }
