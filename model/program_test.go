package model

import (
	"io"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/frameclock"
	"chainwatch/model/link"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// liveProgram is the whole screen as `chainwatch SYMBOL` runs it: a
// tea.Program at 160x48 writing to a byte counter, against the sandbox in
// this process over loopback HTTP and OAuth2, both on a running clock
// that starts at a chosen instant. It is what the idle and output
// measurements watch from outside, as a terminal would.
type liveProgram struct {
	p     *tea.Program
	out   *countingWriter
	chain chan int64 // the output's length as each chain reply arrives
	done  chan struct{}
}

// countingWriter counts the bytes the program writes to its terminal,
// and hands them to also when it is set (before the program starts).
// It also files them under the cause of the last message the App took
// before the write (see outputCause), so a measurement can say what the
// bytes were for.
type countingWriter struct {
	n     atomic.Int64
	cause atomic.Int32
	by    [numCauses]atomic.Int64
	also  io.Writer
}

// outputCause is what the App last updated for before a write: the
// renderer draws at most 60 frames a second after the messages of the
// frame, and the feeds' replies come seconds apart, so the last message
// names the frame's cause (a chain reply and a tape page inside one 16 ms
// frame would be filed under the later one).
type outputCause int32

const (
	causeOther outputCause = iota // the clock, countdowns, the header's age
	causeChain                    // a chain reply: new quotes and their flash
	causeFade                     // the flashes fading
	causeTape                     // a tape page or its greeks
	numCauses
)

// byCause is the bytes written so far under each cause.
func (w *countingWriter) byCause() (by [numCauses]int64) {
	for c := range by {
		by[c] = w.by[c].Load()
	}
	return by
}

func (w *countingWriter) Write(b []byte) (int, error) {
	w.n.Add(int64(len(b)))
	w.by[w.cause.Load()].Add(int64(len(b)))
	if w.also != nil {
		return w.also.Write(b)
	}
	return len(b), nil
}

// programProbe is a snapshot of the App taken on the program's goroutine.
type programProbe struct {
	loaded  bool
	renders int
	frame   string // the last frame the App drew
}

// countedApp marks the output's length at each chain reply and answers
// probes; everything else goes to the App.
type countedApp struct {
	*App
	lp *liveProgram
}

func (c countedApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case probe[programProbe]:
		m <- programProbe{loaded: !c.ws().Chain().LastOK().IsZero() && c.ws().Tape().Held() > 0, renders: c.scr.frame.Renders, frame: c.scr.frame.Content}
		return c, nil
	case redrawAllMsg:
		c.lp.out.cause.Store(int32(causeOther))
		return c, tea.ClearScreen
	case link.Msg:
		c.cause(m.Msg)
	case common.FlashDoneMsg:
		c.lp.out.cause.Store(int32(causeFade))
	case frameclock.TickMsg:
		c.lp.out.cause.Store(int32(causeOther))
	}
	_, cmd := c.App.Update(msg)
	return c, cmd
}

// cause files the bytes written next under what the monitor posted.
func (c countedApp) cause(msg any) {
	switch msg.(type) {
	case feed.ChainMsg:
		c.lp.out.cause.Store(int32(causeChain))
		select {
		case c.lp.chain <- c.lp.out.n.Load():
		default: // nobody is counting yet
		}
	case feed.TapeMsg, feed.TapeGreeksMsg:
		c.lp.out.cause.Store(int32(causeTape))
	case feed.FetchingMsg:
		c.lp.out.cause.Store(int32(causeOther))
	}
}

// startProgram runs symbol's screen from start on, and stops it when t
// ends; opts change the screen's Config first.
func startProgram(t testing.TB, symbol string, start time.Time, profile colorprofile.Profile, opts ...func(*Config)) *liveProgram {
	t.Helper()
	return startProgramTo(t, symbol, start, profile, nil, opts...)
}

// startProgramTo is startProgram with the program's output also written
// to term (a terminal emulator), when it is not nil.
func startProgramTo(t testing.TB, symbol string, start time.Time, profile colorprofile.Profile, term io.Writer, opts ...func(*Config)) *liveProgram {
	t.Helper()
	now := sandbox.Clock(start, 1)
	client := modeltest.StartSandbox(t, sandbox.Config{Now: now, PerSecond: 1000, Market: sandbox.OneClientMarket(now, "")})
	lp := &liveProgram{out: &countingWriter{also: term}, chain: make(chan int64, 64), done: make(chan struct{})}
	cfg := Config{Client: client, Source: "SANDBOX", Symbol: symbol, Now: now, Theme: "dark"}
	for _, o := range opts {
		o(&cfg)
	}
	app := New(cfg)
	lp.p = tea.NewProgram(countedApp{app, lp}, tea.WithInput(nil), tea.WithOutput(lp.out),
		tea.WithWindowSize(160, 48), tea.WithoutSignalHandler(),
		// The counter is no terminal: say what it stands for, so the
		// bytes are a real terminal's, colours included.
		tea.WithColorProfile(profile), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	go func() {
		defer close(lp.done)
		_, _ = lp.p.Run()
	}()
	t.Cleanup(func() {
		lp.p.Quit()
		<-lp.done
	})
	return lp
}

// probe asks the running App for a snapshot; false if it did not answer
// within a second.
func (lp *liveProgram) probe() (programProbe, bool) {
	ch := make(probe[programProbe], 1)
	lp.p.Send(ch)
	select {
	case s := <-ch:
		return s, true
	case <-time.After(time.Second):
		return programProbe{}, false
	}
}

// waitLoaded waits at most 60 s for the chain and the tape.
func (lp *liveProgram) waitLoaded(t testing.TB) {
	t.Helper()
	for range 600 {
		if s, ok := lp.probe(); ok && s.loaded {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the screen did not load its chain and tape in 60 s")
}

// cpuTime is the CPU this process has used, user and system.
func cpuTime(t testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// closedEvening is a Tuesday at 20:00 Eastern: the market closed, the
// screen showing the day's last session, nothing polled until the open.
var closedEvening = time.Date(2026, 11, 24, 20, 0, 0, 0, api.Eastern)

// BenchmarkIdleCPU is `chainwatch SPY` at rest at 160x48 on a closed
// market, with the sandbox in the same process as the embedded one is.
// Each iteration is one second of wall time, so -benchtime 60x watches a
// minute; the figures are per minute of wall time: CPU, frames drawn by
// the App and bytes written to the terminal.
//
//	go test -run '^$' -bench IdleCPU -benchtime 60x ./model
func BenchmarkIdleCPU(b *testing.B) {
	lp := startProgram(b, "SPY", closedEvening, colorprofile.TrueColor)
	lp.waitLoaded(b)
	time.Sleep(2 * time.Second) // the tape's last pages and the flashes settle
	before, _ := lp.probe()
	bytes0, cpu0, wall0 := lp.out.n.Load(), cpuTime(b), time.Now()
	b.ResetTimer()
	for range b.N {
		time.Sleep(time.Second)
	}
	b.StopTimer()
	after, _ := lp.probe()
	perMin := float64(time.Minute) / float64(time.Since(wall0))
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(time.Millisecond)*perMin, "cpu-ms/min")
	b.ReportMetric(float64(after.renders-before.renders)*perMin, "frames/min")
	b.ReportMetric(float64(lp.out.n.Load()-bytes0)*perMin, "bytes/min")
	b.ReportMetric(0, "ns/op")
}

// redrawAllMsg asks the program to draw the whole screen again, as after
// a clear: the size of a full redraw.
type redrawAllMsg struct{}

// openMorning is a Tuesday at 11:30 Eastern, mid-session.
var openMorning = time.Date(2026, 11, 24, 11, 30, 0, 0, api.Eastern)

// BenchmarkOutputPerChainRefresh counts what the screen writes to the
// terminal on a moving market (SPY mid-session, the sandbox's clock
// running): the bytes from one chain reply to the next, everything drawn
// meanwhile included (the new quotes, their flashes fading, the tape, the
// countdowns), against a full redraw of the same screen. Each iteration
// is one chain refresh; in a 256-colour and a true-colour terminal.
//
//	go test -run '^$' -bench OutputPerChainRefresh -benchtime 8x ./model
func BenchmarkOutputPerChainRefresh(b *testing.B) {
	noFlash := func(c *Config) { c.NoFlash = true }
	for _, p := range []struct {
		name    string
		profile colorprofile.Profile
		opts    []func(*Config)
	}{
		{"256", colorprofile.ANSI256, nil},
		{"truecolor", colorprofile.TrueColor, nil},
		{"256-no-flash", colorprofile.ANSI256, []func(*Config){noFlash}},
	} {
		b.Run(p.name, func(b *testing.B) {
			lp := startProgram(b, "SPY", openMorning, p.profile, p.opts...)
			lp.waitLoaded(b)
			mark := func() int64 {
				select {
				case n := <-lp.chain:
					return n
				case <-time.After(60 * time.Second):
					b.Fatal("no chain refresh in 60 s")
				}
				return 0
			}
			for len(lp.chain) > 0 {
				<-lp.chain
			}
			mark()
			before := lp.out.n.Load()
			lp.p.Send(redrawAllMsg{})
			time.Sleep(300 * time.Millisecond) // before the next refresh (seconds away)
			full := lp.out.n.Load() - before
			b.ResetTimer()
			first := mark()
			by0, cpu0 := lp.out.byCause(), cpuTime(b)
			last := first
			for range b.N {
				last = mark()
			}
			by, cpu := lp.out.byCause(), cpuTime(b)-cpu0
			per := float64(last-first) / float64(b.N)
			b.ReportMetric(float64(full), "full-bytes")
			b.ReportMetric(per, "bytes/refresh")
			b.ReportMetric(100*per/float64(full), "%-of-full")
			// The process's CPU a refresh: the screen, its renderer and
			// the sandbox serving it.
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/refresh")
			// What the bytes were for, per refresh: the chain's own frame,
			// its flashes fading, the tape's pages, and the rest (clock,
			// countdowns). Filed at write time, so the four may differ
			// from bytes/refresh by the writes of one frame at either end.
			for c, name := range [numCauses]string{"other", "chain", "fade", "tape"} {
				b.ReportMetric(float64(by[c]-by0[c])/float64(b.N), name+"-B/refresh")
			}
		})
	}
}
