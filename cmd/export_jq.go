package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/itchyny/gojq"

	"chainwatch/text"
)

// A --jq expression runs in a process of its own, this executable started
// again with jqChildEnv set: one step of gojq's machine can build a value
// of any size (`"x" * 2e9`, a string doubled thirty times) and no context
// reaches inside it, so only a process can be stopped mid-step and only a
// process's heap is the expression's alone (the served desk runs many
// commands in one process). The parent kills the child at scriptTime, on
// Ctrl-C and at scriptOutput; the child ends itself past scriptMemory of
// heap or scriptSteps steps, and says which by its exit status.

// jqChildEnv marks the process as a --jq child; main and the test binary's
// TestMain hand it to RunScriptChild before anything else.
const jqChildEnv = "CHAINWATCH_JQ_CHILD"

// scriptMemory bounds a --jq run's heap (a variable, so that tests may
// lower it). A 20,000-contract chain decoded for jq takes a fraction of it.
var scriptMemory int64 = 384 << 20

// dataSlack is what the child's data segment may hold beyond
// scriptMemory: the runtime's own, a value being built when the heap
// watch looks.
const dataSlack = 128 << 20

// The child's exit statuses, other than 0 (done) and a crash.
const (
	jqChildSteps  = 64 // scriptSteps reached
	jqChildMemory = 65 // scriptMemory reached
	jqChildFailed = 66 // the expression's own error, on stderr
	jqChildTime   = 67 // its own deadline, in case the parent is gone
)

var errMemory = errors.New("memory cap")

// jqJob is the first line of the child's stdin; the rows' JSON follows.
type jqJob struct {
	Expr   string
	Steps  int64
	Memory int64
	Time   time.Duration
}

// RunScriptChild runs a --jq child when this process is one, and returns
// its exit status and true; otherwise false at once.
func RunScriptChild() (int, bool) {
	if os.Getenv(jqChildEnv) == "" {
		return 0, false
	}
	return runJQChild(os.Stdin, os.Stdout, os.Stderr), true
}

// runJQProcess runs src on doc in a child process, copying what it yields
// into out; it returns errSteps, errMemory, errOutputCap, the
// expression's error, or ctx's (the caller's cause words it).
func runJQProcess(ctx context.Context, src string, doc []byte, out io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot start jq: %w", err)
	}
	job, err := json.Marshal(jqJob{Expr: src, Steps: scriptSteps, Memory: scriptMemory, Time: scriptTime})
	if err != nil {
		return err
	}
	c := exec.CommandContext(ctx, exe)
	// Nothing of this process's environment: the expression's is empty.
	c.Env = []string{jqChildEnv + "=1"}
	c.Stdin = io.MultiReader(bytes.NewReader(append(job, '\n')), bytes.NewReader(doc))
	var stderr boundedBuffer
	c.Stderr = &stderr
	pipe, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return fmt.Errorf("cannot start jq: %w", err)
	}
	_, cerr := io.Copy(out, pipe)
	if cerr != nil {
		c.Process.Kill() // the output cap, or a closed stdout
		io.Copy(io.Discard, pipe)
	}
	werr := c.Wait()
	var ee *exec.ExitError
	switch {
	case cerr != nil:
		return cerr
	case ctx.Err() != nil:
		return ctx.Err()
	case werr == nil:
		return nil
	case !errors.As(werr, &ee):
		return werr
	}
	switch ee.ExitCode() {
	case jqChildSteps:
		return errSteps
	case jqChildMemory:
		return errMemory
	case jqChildTime:
		return context.DeadlineExceeded
	case jqChildFailed:
		return errors.New(strings.TrimSpace(stderr.String()))
	case 2:
		// The runtime's own end (a fatal error, not a panic) when it is
		// refused memory: past limitData it may be "out of memory", a
		// fault on the refused mapping or a thread it could not start.
		e := stderr.String()
		if strings.Contains(e, "out of memory") || strings.Contains(e, "cannot allocate memory") || dataLimited && !strings.HasPrefix(e, "panic:") {
			return errMemory
		}
	}
	return fmt.Errorf("jq ended unexpectedly (%v): %s", werr, text.OneLine(stderr.String(), 200))
}

// runJQChild is the child's side: read the job, watch the heap, run the
// expression and write its values (as runJQ's doc says) to out.
func runJQChild(in io.Reader, out, errOut io.Writer) int {
	signal.Ignore(os.Interrupt) // the parent decides what Ctrl-C means
	r := bufio.NewReaderSize(in, 64<<10)
	line, err := r.ReadBytes('\n')
	var job jqJob
	if err == nil {
		err = json.Unmarshal(line, &job)
	}
	if err != nil || job.Memory <= 0 || job.Time <= 0 {
		fmt.Fprintln(errOut, "not a jq job")
		return jqChildFailed
	}
	// Past the parent's own bound, so that the parent says why; this one
	// holds only when the parent is gone.
	time.AfterFunc(job.Time+5*time.Second, func() { os.Exit(jqChildTime) })
	// The collector works harder as the heap nears the bound, so garbage
	// is not mistaken for what the expression holds.
	debug.SetMemoryLimit(job.Memory * 3 / 4)
	go watchHeap(job.Memory)
	limitData(job.Memory + dataSlack)
	fail := func(err error) int {
		fmt.Fprintln(errOut, text.OneLine(err.Error(), 200))
		return jqChildFailed
	}
	code, err := compileJQ(job.Expr)
	if err != nil {
		return fail(err)
	}
	var v any
	if err := json.NewDecoder(r).Decode(&v); err != nil {
		return fail(err)
	}
	w := bufio.NewWriterSize(out, 32<<10)
	err = jqValues(code.RunWithContext(newStepContext(context.Background(), job.Steps), v), w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	switch {
	case errors.Is(err, errSteps):
		return jqChildSteps
	case err != nil:
		return fail(err)
	}
	return 0
}

// heapPoll is how often the child looks at its heap: a large value is
// counted when it is allocated, before its bytes are written.
const heapPoll = 2 * time.Millisecond

// watchHeap ends the process once its heap objects pass limit.
func watchHeap(limit int64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for {
		metrics.Read(s)
		if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > uint64(limit) {
			os.Exit(jqChildMemory)
		}
		time.Sleep(heapPoll)
	}
}

// boundedBuffer keeps the first 4 KiB written to it: the child's stderr.
type boundedBuffer struct{ b bytes.Buffer }

func (w *boundedBuffer) Write(p []byte) (int, error) {
	if room := 4<<10 - w.b.Len(); room > 0 {
		w.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (w *boundedBuffer) String() string { return w.b.String() }

// compileJQ parses and compiles a --jq expression before anything is
// spent: a typo costs nothing. Its environment ($ENV, env) is empty.
func compileJQ(src string) (*gojq.Code, error) {
	q, err := gojq.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("--jq %s: %s", text.Quote(src), text.OneLine(err.Error(), 200))
	}
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(func() []string { return nil }))
	if err != nil {
		return nil, fmt.Errorf("--jq %s: %s", text.Quote(src), text.OneLine(err.Error(), 200))
	}
	return code, nil
}
