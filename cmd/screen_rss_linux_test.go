package cmd

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/model/link"
)

// childHoldEnv makes the child's screen stay this long after its first
// chain, then say its resident set and quit (holdScreen).
const childHoldEnv = "CHAINWATCH_BENCH_CHILD_HOLD"

// screenBudgetMB is issue 43's bound on `chainwatch SPX`'s resident set
// once it has painted and settled, with the store of past days on.
const screenBudgetMB = 80

// closedSunday is the embedded sandbox on a Sunday: the screen shows
// Friday's close, a past day, so the store is asked for the whole chain
// and its trades at once and keeps them.
const closedSunday = "2026-11-29T12:00:00-05:00"

// BenchmarkScreenRSSSPX is `chainwatch SPX` on the embedded sandbox on a
// closed market, drawn at 160x48 into nothing, in a child process as
// main runs it: its resident set (VmRSS, and the peak VmHWM) 40 seconds
// after the first chain arrived, with the store of past days and with
// --no-history. held-MB is the resident set less the heap the Go runtime
// keeps unreturned for reuse (idle, not yet released). The budget is on
// the resident set: the screen hands the startup's idle heap back a few
// seconds after its first chain (common.Settle), which is what keeps
// the resident set from swinging with when the collector last ran.
//
//	go test -run '^$' -bench ScreenRSSSPX -benchtime 1x ./cmd
func BenchmarkScreenRSSSPX(b *testing.B) {
	for _, c := range []struct {
		name string
		args []string
	}{{"history", nil}, {"no-history", []string{"--no-history"}}} {
		b.Run(c.name, func(b *testing.B) {
			var m screenMem
			for b.Loop() {
				env := childEnv(b.TempDir(), append([]string{"SPX", "--sandbox-clock", closedSunday}, c.args...))
				m = heldScreen(b, append(env, childHoldEnv+"=40s"))
			}
			b.ReportMetric(m.rss, "rss-MB")
			b.ReportMetric(m.hwm, "hwm-MB")
			b.ReportMetric(m.rss-m.idle, "held-MB")
			b.ReportMetric(0, "ns/op")
			if c.args == nil && m.rss > screenBudgetMB {
				b.Errorf("the SPX screen is %.1f MB resident with the store on, over the %d MB budget", m.rss, screenBudgetMB)
			}
		})
	}
}

// screenMem is what the child says, in MB: VmRSS, VmHWM, and the Go
// heap it holds idle and unreleased.
type screenMem struct{ rss, hwm, idle float64 }

// heldScreen runs the child and reads the memory it says.
func heldScreen(b *testing.B, env []string) screenMem {
	c := exec.Command(os.Args[0])
	c.Env = env
	var errOut bytes.Buffer
	c.Stderr = &errOut
	out, err := c.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Start(); err != nil {
		b.Fatal(err)
	}
	line, rerr := bufio.NewReader(out).ReadString('\n')
	_, _ = io.Copy(io.Discard, out)
	werr := c.Wait()
	var m screenMem
	if _, err := fmt.Sscanf(line, "rss %f hwm %f idle %f", &m.rss, &m.hwm, &m.idle); err != nil || rerr != nil || werr != nil {
		b.Fatalf("chainwatch SPX: said %q (%v, %v), exit %v, stderr %q", line, err, rerr, werr, errOut.String())
	}
	return screenMem{m.rss / 1000, m.hwm / 1000, m.idle / 1000}
}

// holdScreen is the child's screen: the watch screen as runWatchTUI runs
// it, drawing into nothing; d after its first chain it says its VmRSS,
// VmHWM and idle unreleased heap (kB) on stdout and quits.
func holdScreen(d time.Duration) func(model.Config) error {
	return func(cfg model.Config) error {
		p := tea.NewProgram(&held{App: model.New(cfg), d: d}, tea.WithInput(nil), tea.WithOutput(io.Discard),
			tea.WithWindowSize(160, 48), tea.WithoutSignalHandler(),
			tea.WithColorProfile(colorprofile.ANSI256), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
		_, err := p.Run()
		return err
	}
}

type held struct {
	*model.App
	d       time.Duration
	painted bool
}

type heldUp struct{}

func (h *held) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(heldUp); ok {
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			return h, tea.Quit
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Fprintf(os.Stdout, "rss %s hwm %s idle %d\n", statusKB(status, "VmRSS:"), statusKB(status, "VmHWM:"), (ms.HeapIdle-ms.HeapReleased)/1000)
		return h, tea.Quit
	}
	_, cmd := h.App.Update(msg)
	if l, ok := msg.(link.Msg); ok && !h.painted {
		if c, ok := l.Msg.(feed.ChainMsg); ok && c.Chain != nil {
			h.painted = true
			return h, tea.Batch(cmd, tea.Tick(h.d, func(time.Time) tea.Msg { return heldUp{} }))
		}
	}
	return h, cmd
}

// statusKB is the number of a /proc status line, in kB.
func statusKB(status []byte, field string) string {
	for l := range strings.Lines(string(status)) {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == field {
			return f[1]
		}
	}
	return "?"
}
