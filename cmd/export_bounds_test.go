package cmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withScriptBounds lowers the --jq/--template bounds for one test.
func withScriptBounds(t *testing.T, steps int64, limit time.Duration, output int64, hold int) {
	t.Helper()
	s, l, o, h := scriptSteps, scriptTime, scriptOutput, scriptHold
	scriptSteps, scriptTime, scriptOutput, scriptHold = steps, limit, output, hold
	t.Cleanup(func() { scriptSteps, scriptTime, scriptOutput, scriptHold = s, l, o, h })
}

// TestScriptsAreBounded: issue 30's expressions ran until interrupted,
// printed nothing and grew to 200 MB. Each now stops at a bound (steps,
// output or time), says which, exits 2, and what it yields streams: the
// output past the held-back start is written as it comes.
func TestScriptsAreBounded(t *testing.T) {
	// The time bound is far off: a loaded machine under -race must not
	// meet it before the bound each case is about.
	withScriptBounds(t, 200_000, 10*time.Minute, 1<<20, 1<<10)
	for _, tc := range []struct {
		name       string
		f          exportFlags
		want       string
		streamed   bool // some output was let through before the stop
		mustStream bool
	}{
		{"endless recursion", exportFlags{jq: "def f: f; f"}, "stopped after 200,000 steps", false, false},
		{"endless generator", exportFlags{jq: "repeat(1)"}, "stopped after 200,000 steps", true, true},
		{"a huge array", exportFlags{jq: "[range(1e18)]"}, "stopped after 200,000 steps", false, false},
		{"a huge range", exportFlags{jq: "range(1e18)"}, "stopped after 200,000 steps", true, true},
		{"a template's huge range", exportFlags{template: "{{range 100000000000}}x{{end}}"}, "stopped at 1 MiB of output", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			err := formatOf(t, tc.f).WriteContext(t.Context(), &b, exportOf())
			if exitCode(err) != ExitInput || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v (exit %d), want exit 2 and %q", err, exitCode(err), tc.want)
			}
			if tc.mustStream && (b.Len() <= scriptHold || int64(b.Len()) > scriptOutput) {
				t.Errorf("printed %d bytes, want more than the %d held back and at most %d", b.Len(), scriptHold, scriptOutput)
			}
			if !tc.streamed && b.Len() != 0 {
				t.Errorf("printed %d bytes, want none", b.Len())
			}
			if tc.streamed != strings.Contains(err.Error(), "bytes were printed") {
				t.Errorf("%v: does not say what was printed", err)
			}
		})
	}
}

// TestTemplateWithoutOutputStopsInTime: a template that loops without
// writing cannot be cancelled (text/template has no context): the run
// stops at the time bound and is abandoned, and ends at its next write.
// (Five million empty iterations take about 100 ms, so 1 ms is met first;
// the "x" after them ends the abandoned run in this test process.)
func TestTemplateWithoutOutputStopsInTime(t *testing.T) {
	withScriptBounds(t, 200_000, time.Millisecond, 1<<20, 1<<10)
	var b bytes.Buffer
	err := formatOf(t, exportFlags{template: "{{range 5000000}}{{end}}x"}).WriteContext(t.Context(), &b, exportOf())
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "stopped after 1ms, the longest it may run") || b.Len() != 0 {
		t.Fatalf("%v (exit %d), %d bytes printed", err, exitCode(err), b.Len())
	}
}

// TestShortScriptOutputIsAllOrNothing: within the held-back start, an
// error leaves stdout empty, as for every other format.
func TestShortScriptOutputIsAllOrNothing(t *testing.T) {
	var b bytes.Buffer
	err := formatOf(t, exportFlags{jq: ".[].symbol, error(\"boom\")"}).WriteContext(t.Context(), &b, exportOf())
	if exitCode(err) != ExitInput || b.Len() != 0 || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("%v, printed %q", err, b.String())
	}
}

// cancelOnWrite ends a context at its first write: the command is
// interrupted while the expression streams.
type cancelOnWrite struct {
	cancel context.CancelFunc
	n      int
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.n += len(p)
	c.cancel()
	return len(p), nil
}

// TestScriptStopsWhenInterrupted: the command's context ending (as
// Ctrl-C ends it) stops an endless expression: exit status 130, what it
// printed kept.
func TestScriptStopsWhenInterrupted(t *testing.T) {
	withScriptBounds(t, 1<<62, time.Hour, 1<<40, 1<<10)
	for _, f := range []exportFlags{{jq: "repeat(1)"}, {template: "{{range 100000000000}}x{{end}}"}} {
		ctx, cancel := context.WithCancel(t.Context())
		w := &cancelOnWrite{cancel: cancel}
		err := formatOf(t, f).WriteContext(ctx, w, exportOf())
		if exitCode(err) != ExitInterrupted || !strings.Contains(err.Error(), "interrupted") || w.n == 0 {
			t.Errorf("%+v: %v (exit %d), %d bytes printed", f, err, exitCode(err), w.n)
		}
		cancel()
	}
}

// TestScriptStopsOnCtrlC: a real SIGINT to a process running --jq
// 'repeat(1)' (its bounds raised out of reach) stops it with exit status
// 130 and the message on stderr, after it has streamed.
func TestScriptStopsOnCtrlC(t *testing.T) {
	if os.Getenv("CHAINWATCH_TEST_JQ_CHILD") == "1" {
		scriptSteps, scriptTime, scriptOutput = 1<<62, time.Hour, 1<<50
		err := formatOf(t, exportFlags{jq: "repeat(1)"}).WriteContext(context.Background(), os.Stdout, exportOf())
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
		}
		os.Exit(exitCode(err))
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestScriptStopsOnCtrlC$")
	cmd.Env = append(os.Environ(), "CHAINWATCH_TEST_JQ_CHILD=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	// The child streams: once more than the held-back start has come, it
	// is running the expression, with its Ctrl-C handler in place.
	if _, err := io.CopyN(io.Discard, r, int64(scriptHold)+1); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, r)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted || !strings.Contains(stderr.String(), "--jq: interrupted") {
		t.Fatalf("child: %v, stderr %q; want exit 130 and --jq: interrupted", err, stderr.String())
	}
}
