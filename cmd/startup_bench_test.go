package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/model/link"
)

// These benchmarks run chainwatch as a user does, each iteration a process
// of its own: what a process makes once (the sandbox's universe, its
// calendar) would otherwise be paid by the first iteration only. The
// benchmark runs this test binary again with childArgsEnv set to the
// command line, and TestMain runs that child as main does.
const (
	childArgsEnv    = "CHAINWATCH_BENCH_CHILD_ARGS" // the arguments, one a line
	childLadderEnv  = "CHAINWATCH_BENCH_CHILD_LADDER"
	childProfileEnv = "CHAINWATCH_BENCH_CHILD_PROFILE"
)

// benchClock is an open market, so that the sandbox's first chain prices
// a morning of trades as a user's would mid-session.
const benchClock = "2026-11-24T11:00:00-05:00"

func TestMain(m *testing.M) {
	// --jq runs in a child process: this test binary, as main runs it.
	if code, ok := RunScriptChild(); ok {
		os.Exit(code)
	}
	if args, ok := os.LookupEnv(childArgsEnv); ok {
		os.Exit(runChild(strings.Split(args, "\n")))
	}
	if spec, ok := os.LookupEnv(clientsEnv); ok {
		os.Exit(runClients(spec))
	}
	os.Exit(m.Run())
}

// runChild is one run of a benchmark's child, as main runs chainwatch,
// with a CPU profile of its own when the benchmark was given -cpuprofile.
func runChild(args []string) int {
	if p := os.Getenv(childProfileEnv); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	deps := Process(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	if os.Getenv(childLadderEnv) != "" {
		deps.runWatch = runToFirstLadder
	}
	if os.Getenv(childScanEnv) != "" {
		deps.runWatch = runScanAfterLadder
	}
	if d, err := time.ParseDuration(os.Getenv(childHoldEnv)); err == nil {
		deps.runWatch = holdScreen(d) // screen_rss_linux_test.go
	}
	return Execute(deps, args)
}

// childProfiles numbers the children's profiles: FILE.child-N beside the
// benchmark's -cpuprofile FILE, none without it. The parent's own profile
// holds nothing of the children's work; read theirs together with
// go tool pprof -top FILE.child-*.
type childProfiles struct {
	path string
	n    int
}

func newChildProfiles() *childProfiles {
	f := flag.Lookup("test.cpuprofile")
	if f == nil || f.Value.String() == "" {
		return &childProfiles{}
	}
	p := f.Value.String()
	if dir := flag.Lookup("test.outputdir"); !filepath.IsAbs(p) && dir != nil && dir.Value.String() != "" {
		p = filepath.Join(dir.Value.String(), p)
	}
	return &childProfiles{path: p}
}

// env is the next child's setting, or none; the first child, the
// benchmark's untimed run, has none.
func (c *childProfiles) env() []string {
	if c.n++; c.path == "" || c.n == 1 {
		return nil
	}
	return []string{fmt.Sprintf("%s=%s.child-%d", childProfileEnv, c.path, c.n)}
}

// childEnv is the environment of a child: this process's, without any
// chainwatch setting (a developer's credentials would pick another
// service), and home, config and state directories under root, kept for
// the whole run as a user's are.
func childEnv(root string, args []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CHAINWATCH_") && !strings.HasPrefix(kv, "XDG_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+filepath.Join(root, "home"), "XDG_CONFIG_HOME="+filepath.Join(root, "config"),
		"XDG_STATE_HOME="+filepath.Join(root, "state"), childArgsEnv+"="+strings.Join(args, "\n"))
}

// BenchmarkChainSPYJSONEmbedded is `chainwatch chain SPY --json` with no
// credentials, so on the embedded sandbox, from the process's start to its
// exit, on an open market (--sandbox-clock); cpu-ms/run is its CPU time,
// user and system, and min-ms the fastest run, both of which other work
// on the machine changes less than the mean. One home serves them all, as
// a user's does, after a first run (not timed) that makes its files.
//
//	go test -run '^$' -bench ChainSPYJSONEmbedded -benchtime 20x ./cmd
func BenchmarkChainSPYJSONEmbedded(b *testing.B) {
	benchJSONChild(b, "chain SPY --json", []string{"chain", "SPY", "--json", "--sandbox-clock", benchClock})
}

// benchJSONChild runs chainwatch with args in a child process at each
// iteration, checks that stdout is a JSON array of at least one row, and
// reports ms/run, min-ms and cpu-ms/run as BenchmarkChainSPYJSONEmbedded
// says. One home serves every run, after a first one (not timed) that
// makes its files.
func benchJSONChild(b *testing.B, what string, args []string) {
	env := childEnv(b.TempDir(), args)
	var cpu time.Duration
	profiles := newChildProfiles()
	run := func() time.Duration {
		c := exec.Command(os.Args[0])
		c.Env = append(env, profiles.env()...)
		var out, errOut bytes.Buffer
		c.Stdout, c.Stderr = &out, &errOut
		began := time.Now()
		err := c.Run()
		took := time.Since(began)
		var rows []map[string]any
		if err != nil || json.Unmarshal(out.Bytes(), &rows) != nil || len(rows) == 0 {
			b.Fatalf("%s: %v, %d bytes out, stderr %q", what, err, out.Len(), errOut.String())
		}
		cpu += c.ProcessState.UserTime() + c.ProcessState.SystemTime()
		return took
	}
	run()
	var total time.Duration
	fastest := time.Hour
	cpu = 0
	for b.Loop() {
		took := run()
		total, fastest = total+took, min(fastest, took)
	}
	b.ReportMetric(float64(total)/float64(time.Millisecond)/float64(b.N), "ms/run")
	b.ReportMetric(float64(fastest)/float64(time.Millisecond), "min-ms")
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/run")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkLaunchToFirstLadderEmbedded is `chainwatch SPX` with no
// credentials from the process's start to its first ladder: the embedded
// sandbox started in the process, the first chain reply handled by the
// screen (the frame that shows it is drawn in the same Update), at 160x48
// in 256 colours on an open market. model's BenchmarkLaunchToFirstLadder
// is the same with the sandbox already up. cpu-ms/launch is the
// process's CPU time to its exit, which other work on the machine changes
// less than the time to the ladder. As above, a first run (not timed)
// makes the home's files.
//
//	go test -run '^$' -bench LaunchToFirstLadderEmbedded -benchtime 20x ./cmd
func BenchmarkLaunchToFirstLadderEmbedded(b *testing.B) {
	env := append(childEnv(b.TempDir(), []string{"SPX", "--sandbox-clock", benchClock}), childLadderEnv+"=1")
	profiles := newChildProfiles()
	var cpu time.Duration
	launch := func() time.Duration {
		c := exec.Command(os.Args[0])
		c.Env = append(env, profiles.env()...)
		var errOut bytes.Buffer
		c.Stderr = &errOut
		out, err := c.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		began := time.Now()
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		took := time.Since(began)
		_, _ = io.Copy(io.Discard, out)
		if werr := c.Wait(); err != nil || werr != nil || line != "ladder\n" {
			b.Fatalf("chainwatch SPX: said %q (%v), exit %v, stderr %q", line, err, werr, errOut.String())
		}
		cpu += c.ProcessState.UserTime() + c.ProcessState.SystemTime()
		return took
	}
	launch()
	var total time.Duration
	fastest := time.Hour
	cpu = 0
	for b.Loop() {
		took := launch()
		total, fastest = total+took, min(fastest, took)
	}
	b.ReportMetric(float64(total)/float64(time.Millisecond)/float64(b.N), "ms/launch")
	b.ReportMetric(float64(fastest)/float64(time.Millisecond), "min-ms")
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/launch")
	b.ReportMetric(0, "ns/op")
}

// runToFirstLadder is the child's screen: the watch screen as runWatchTUI
// runs it, drawing into nothing, until its first chain reply; then it says
// "ladder" on stdout and quits.
func runToFirstLadder(cfg model.Config) error {
	p := tea.NewProgram(firstLadder{model.New(cfg)}, tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithWindowSize(160, 48), tea.WithoutSignalHandler(),
		tea.WithColorProfile(colorprofile.ANSI256), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	_, err := p.Run()
	return err
}

// firstLadder is the App, quitting once it has handled a chain reply.
type firstLadder struct{ *model.App }

func (f firstLadder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.App.Update(msg)
	if l, ok := msg.(link.Msg); ok {
		if c, ok := l.Msg.(feed.ChainMsg); ok {
			if c.Err != nil || c.Chain == nil {
				fmt.Fprintln(os.Stderr, "the first chain reply has no chain:", c.Err)
				os.Exit(1)
			}
			fmt.Fprintln(os.Stdout, "ladder")
			return f, tea.Quit
		}
	}
	return f, cmd
}
