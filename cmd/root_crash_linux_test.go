package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"chainwatch/model"
)

// ptyTerm is a real pseudo-terminal of 120x40: the program gets its tty
// end, the test reads everything written to it from the other.
type ptyTerm struct {
	ptmx, tty *os.File
	out       *syncBuffer
	before    unix.Termios // its modes before the program
}

func openPty(t *testing.T) *ptyTerm {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	p := &ptyTerm{ptmx: ptmx, tty: tty, out: &syncBuffer{}}
	p.before = p.termios(t)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := ptmx.Read(buf)
			p.out.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { tty.Close(); ptmx.Close() })
	return p
}

func (p *ptyTerm) termios(t *testing.T) unix.Termios {
	t.Helper()
	st, err := unix.IoctlGetTermios(int(p.tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return *st
}

// waitFor polls what the terminal received until ok (every 20 ms, 20 s
// at most).
func (p *ptyTerm) waitFor(t *testing.T, what string, ok func(string) bool) {
	t.Helper()
	for range 1000 {
		if ok(ansi.Strip(p.out.String())) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s := ansi.Strip(p.out.String())
	t.Fatalf("no %s within 20s; the terminal got %q", what, s[max(0, len(s)-400):])
}

// runCrashingScreen runs `chainwatch SPY` on a real terminal against the
// sandbox of env, with the screen behind panicOnKey, and returns the
// terminal, a channel of the exit status, and the stderr buffer.
func runCrashingScreen(t *testing.T, env map[string]string, now func() time.Time) (*ptyTerm, <-chan int, *syncBuffer) {
	t.Helper()
	term := openPty(t)
	out, errOut := &syncBuffer{}, &syncBuffer{}
	deps := cli{env: env}.deps(out, errOut)
	deps.now = now
	deps.panics = monitorRelay()
	getenv := deps.getenv
	deps.runWatch = func(cfg model.Config) error {
		opts := []tea.ProgramOption{tea.WithInput(term.tty), tea.WithOutput(term.tty), tea.WithEnvironment([]string{"TERM=xterm-256color"})}
		return runScreen(&panicOnKey{Model: model.New(cfg)}, screenRun{opts: opts, getenv: getenv, relay: deps.panics})
	}
	code := make(chan int, 1)
	go func() { code <- Execute(deps, []string{"SPY"}) }()
	return term, code, errOut
}

var reportLine = regexp.MustCompile(`^Error: the watch screen stopped: an internal error ended the screen; the crash report is (\S+)\n$`)

// The item: a panic inside the screen restores the terminal (its
// modes and the sequences that leave the full screen), writes a crash
// report under the state directory (version, commit, stack, the last
// messages, the terminal's size) and ends the process with one line
// naming it, exit status 70.
func TestScreenPanicRestoresTerminalAndWritesReport(t *testing.T) {
	env, _ := quotesEnv(t)
	term, code, errOut := runCrashingScreen(t, env, clockAt)
	before := term.before
	term.waitFor(t, "ladder", ladder.MatchString)
	if raw := term.termios(t); raw.Lflag&unix.ICANON != 0 {
		t.Fatal("the screen did not put the terminal in raw mode")
	}
	term.ptmx.WriteString("!")
	var status int
	select {
	case status = <-code:
	case <-time.After(20 * time.Second):
		t.Fatal("chainwatch did not end within 20s of the panic")
	}
	if status != ExitInternal {
		t.Errorf("exit status %d, want %d", status, ExitInternal)
	}
	if after := term.termios(t); after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Errorf("the terminal's modes were not restored: %+v, was %+v", after, before)
	}
	raw := term.out.String()
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?25h"} { // leave the alternate screen, show the cursor
		if i := strings.LastIndex(raw, seq); i < 0 || i < strings.LastIndex(raw, "\x1b[?1049h") {
			t.Errorf("no %q after the screen: %q", seq, raw[max(0, len(raw)-300):])
		}
	}
	m := reportLine.FindStringSubmatch(errOut.String())
	if m == nil {
		t.Fatalf("stderr is not the one line naming the report: %q", errOut.String())
	}
	path := m[1]
	if dir := filepath.Join(env["XDG_STATE_HOME"], "chainwatch", "crash"); filepath.Dir(path) != dir {
		t.Errorf("report %s, want it in %s", path, dir)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("report %s: %v, %v", path, fi, err)
	}
	data, _ := os.ReadFile(path)
	report := string(data)
	for _, want := range []string{"version:  " + version(), "commit:   ", "terminal: 120x40", "where:    View",
		"panic:    runtime error: index out of range [88] with length 3", "tea.KeyPressMsg !", "link.Msg feed.",
		"cmd.(*panicOnKey).View", "crash.(*Guard).View"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	// No credential of the service reaches the report: the client secret,
	// a token (a JWT), or an Authorization header.
	for _, secret := range []string{env[envClientSecret], "eyJ", "Bearer", "Authorization", "access_token"} {
		if strings.Contains(report, secret) {
			t.Errorf("the report holds %q:\n%s", secret, report)
		}
	}
}

// monitorClock is the tests' clock that, once armed, panics the first
// time the monitor reads it: with the monitor's lock held.
type monitorClock struct{ armed, fired atomic.Bool }

func (c *monitorClock) now() time.Time {
	if c.armed.Load() && inMonitor() && c.fired.CompareAndSwap(false, true) {
		panic("the clock broke inside the monitor")
	}
	return clockAt()
}

func inMonitor() bool {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "chainwatch/feed.(*Monitor)") || strings.HasPrefix(f.Function, "chainwatch/feed.(*Subscription)") {
			return true
		}
		if !more {
			return false
		}
	}
}

// A panic inside the monitor, with its lock held, still ends chainwatch
// with its report and line: the monitor, locked for good, is not waited
// on after a crash.
func TestScreenPanicInsideTheMonitorStillExits(t *testing.T) {
	env, _ := quotesEnv(t)
	clock := &monitorClock{}
	term, code, errOut := runCrashingScreen(t, env, clock.now)
	term.waitFor(t, "ladder", ladder.MatchString)
	clock.armed.Store(true)
	term.ptmx.WriteString("j") // a key: the screen tells the monitor what it wants
	select {
	case status := <-code:
		if status != ExitInternal {
			t.Errorf("exit status %d, want %d", status, ExitInternal)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("chainwatch did not end within 20s of a panic inside the monitor")
	}
	m := reportLine.FindStringSubmatch(errOut.String())
	if m == nil {
		t.Fatalf("stderr is not the one line naming the report: %q", errOut.String())
	}
	data, _ := os.ReadFile(m[1])
	if !strings.Contains(string(data), "the clock broke inside the monitor") || !strings.Contains(string(data), "chainwatch/feed.(*") {
		t.Errorf("the report does not tell the monitor's panic:\n%s", data)
	}
}
