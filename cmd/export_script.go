package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/itchyny/gojq"

	"chainwatch/scan"
	"chainwatch/text"
)

// --jq and --template run on the rows' JSON document (an array of
// objects) as gh's do. jq is github.com/itchyny/gojq, a jq in pure Go, so a
// script needs no jq binary on the box; its environment ($ENV, env) is
// empty, so an expression cannot read the client secret from the process.

// The bounds of a --jq or --template run, so that neither `def f: f; f`,
// `repeat(1)`, `[range(1e18)]` nor `{{range 100000000000}}x{{end}}` runs
// until interrupted, holding the whole output in memory: a run stops at
// the first bound it meets, says which on stderr and exits 2, keeping
// what it already printed. Variables, so that tests may lower them.
var (
	// scriptSteps bounds jq's work (and with it the memory an expression
	// can build): gojq checks its context at every step of its machine.
	// The bound stands far above what a whole SPX chain to CSV, or a
	// sort and filter of a day's trades, takes.
	scriptSteps int64 = 20_000_000
	// scriptTime bounds either's wall time.
	scriptTime = 30 * time.Second
	// scriptOutput bounds what either writes.
	scriptOutput int64 = 64 << 20
	// scriptHold is how much output is held back before it streams: an
	// error within it leaves stdout empty, as for the other formats.
	scriptHold = 64 << 10
)

// errInterrupted is a --jq or --template run stopped by Ctrl-C.
var errInterrupted = errors.New("interrupted")

// scriptContext is the context of one --jq or --template run: its
// caller's, ended by Ctrl-C and by scriptTime. stop releases it; cause
// says why it ended, in the user's words.
func scriptContext(parent context.Context) (ctx context.Context, stop func(), cause func() error) {
	if parent == nil {
		parent = context.Background()
	}
	sig, stopSig := signal.NotifyContext(parent, os.Interrupt)
	ctx, cancel := context.WithTimeout(sig, scriptTime)
	cause = func() error {
		switch {
		case sig.Err() != nil:
			return errInterrupted // Ctrl-C, or the command's context ended
		case ctx.Err() != nil:
			return fmt.Errorf("stopped after %s, the longest it may run", scriptTime)
		}
		return nil
	}
	return ctx, func() { cancel(); stopSig() }, cause
}

// stepContext ends after max steps of gojq's machine, which asks Done at
// every step; its parent's end ends it too.
type stepContext struct {
	context.Context
	steps, max int64
	over       chan struct{}
}

func newStepContext(parent context.Context, max int64) *stepContext {
	c := &stepContext{Context: parent, max: max, over: make(chan struct{})}
	close(c.over)
	return c
}

func (c *stepContext) Done() <-chan struct{} {
	if c.steps++; c.steps > c.max {
		return c.over
	}
	return c.Context.Done()
}

func (c *stepContext) Err() error {
	if c.steps > c.max {
		return errSteps
	}
	return c.Context.Err()
}

var errSteps = errors.New("too many steps")

// scriptOut is where a --jq or --template run writes: the first
// scriptHold bytes are held back (an error among them leaves stdout
// empty), then everything streams, buffered; past scriptOutput bytes a
// write fails and the run stops.
type scriptOut struct {
	dst       io.Writer
	buf       *bufio.Writer
	held      []byte
	hold, max int64
	n         int64
	werr      error // the destination's own failure (a closed pipe)
}

var errOutputCap = errors.New("output cap")

func newScriptOut(dst io.Writer, hold int64) *scriptOut {
	return &scriptOut{dst: dst, hold: hold, max: scriptOutput}
}

func (s *scriptOut) Write(p []byte) (int, error) {
	if s.werr != nil {
		return 0, s.werr
	}
	if s.n+int64(len(p)) > s.max {
		return 0, errOutputCap
	}
	n := len(p)
	s.n += int64(n)
	if s.buf == nil {
		s.held = append(s.held, p...)
		if int64(len(s.held)) <= s.hold {
			return n, nil
		}
		s.buf = bufio.NewWriterSize(s.dst, 32<<10)
		p, s.held = s.held, nil
	}
	if _, err := s.buf.Write(p); err != nil {
		s.werr = err
		return 0, err
	}
	return n, nil
}

// streaming reports whether some output has been let through.
func (s *scriptOut) streaming() bool { return s.buf != nil }

// finish writes what is held (ok: the run succeeded) or drops it, and
// flushes what streams.
func (s *scriptOut) finish(ok bool) error {
	if s.buf == nil {
		if !ok || len(s.held) == 0 {
			return nil
		}
		_, err := s.dst.Write(s.held)
		return err
	}
	if err := s.buf.Flush(); err != nil && s.werr == nil {
		s.werr = err
	}
	return s.werr
}

// scriptError words why a run stopped: its bound, Ctrl-C, or the
// expression's own error, saying whether output was already printed.
func scriptError(flag string, out *scriptOut, err error, cause func() error) error {
	kept := ""
	if out.streaming() {
		kept = fmt.Sprintf(" (the first %s bytes were printed)", scan.GroupDigits(out.n))
	}
	switch c := cause(); {
	case errors.Is(err, errOutputCap):
		return badInput(fmt.Errorf("%s: stopped at %d MiB of output, the most it may write%s", flag, scriptOutput>>20, kept))
	case errors.Is(err, errMemory):
		return badInput(fmt.Errorf("%s: stopped at %d MiB of memory, the most it may hold (a value that keeps growing?)%s", flag, scriptMemory>>20, kept))
	case errors.Is(err, errSteps):
		return badInput(fmt.Errorf("%s: stopped after %s steps, the most it may take (an endless recursion or generator?)%s", flag, scan.GroupDigits(scriptSteps), kept))
	case errors.Is(c, errInterrupted):
		return interrupted(fmt.Errorf("%s: interrupted%s", flag, kept))
	case c != nil:
		return badInput(fmt.Errorf("%s: %v%s", flag, c, kept))
	case out.werr != nil:
		return out.werr
	}
	return badInput(fmt.Errorf("%s: %s%s", flag, text.OneLine(err.Error(), 200), kept))
}

// runJQ writes each value the expression yields on a line of its own: a
// string as it is (jq -r, the useful form in a pipeline: its tabs and line
// breaks kept, as the expression may have built a TSV line; any other
// control removed), anything else as compact JSON. The values stream as
// they come (after the first scriptHold bytes), within the script bounds;
// the expression runs in a process of its own (export_jq.go). An error of
// the expression on this data is the caller's (exit status 2), and leaves
// stdout empty when nothing streamed yet.
func runJQ(ctx context.Context, src string, doc []byte, w io.Writer, hold int64) error {
	ctx, stop, cause := scriptContext(ctx)
	defer stop()
	out := newScriptOut(w, hold)
	err := runJQProcess(ctx, src, doc, out)
	if ferr := out.finish(err == nil); err == nil {
		err = ferr
		if err == nil {
			return nil
		}
	}
	return scriptError("--jq", out, err, cause)
}

// jqValues writes what iter yields until it ends or fails.
func jqValues(iter gojq.Iter, out io.Writer) error {
	for {
		v, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := v.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil // halt: stop without an error
			}
			return err
		}
		var b []byte
		if s, ok := v.(string); ok {
			b = append([]byte(cleanKeepLines(s)), '\n')
		} else {
			js, err := gojq.Marshal(v)
			if err != nil {
				return err
			}
			b = append(escapeC1(js), '\n')
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
	}
}

// parseTemplate parses a --template before anything is spent.
func parseTemplate(src string) (*template.Template, error) {
	t, err := template.New("--template").Option("missingkey=zero").Parse(src)
	if err != nil {
		return nil, fmt.Errorf("--template: %s", text.OneLine(err.Error(), 200))
	}
	return t, nil
}

// runTemplate executes the template on the rows (a slice of maps, as
// decoded from the JSON, so field names are the JSON keys). The values are
// cleaned as the table's are, and a null is empty rather than Go's
// "<no value>"; what the template writes itself is cleaned piece by
// piece, its line breaks and tabs kept, since it writes lines and columns
// on purpose. The output streams (after the first scriptHold bytes),
// within the script bounds: text/template cannot be cancelled, so past
// scriptTime or on Ctrl-C the run is abandoned and the command ends.
func runTemplate(ctx context.Context, t *template.Template, doc []byte, w io.Writer, hold int64) error {
	var rows []map[string]any
	if err := json.Unmarshal(doc, &rows); err != nil {
		return err
	}
	for _, r := range rows {
		for k, v := range r {
			switch v := v.(type) {
			case nil:
				r[k] = ""
			case string:
				r[k] = text.Clean(v)
			}
		}
	}
	ctx, stop, cause := scriptContext(ctx)
	defer stop()
	out := newScriptOut(w, hold)
	cw := &ctxWriter{ctx: ctx, w: out}
	done := make(chan error, 1)
	go func() { done <- t.Execute(cw, rows) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		cw.stop() // the template's next write fails; the goroutine is left to it
		err = ctx.Err()
	}
	if ferr := out.finish(err == nil); err == nil {
		err = ferr
		if err == nil {
			return nil
		}
	}
	return scriptError("--template", out, err, cause)
}

// ctxWriter cleans what a template writes and passes it on until stop:
// after it, every write fails, so an abandoned template stops at its next
// write; its mutex keeps that write from racing the finish.
type ctxWriter struct {
	ctx     context.Context
	mu      sync.Mutex
	stopped bool
	w       io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return 0, c.ctx.Err()
	}
	out := p
	if hasControl(p) {
		out = []byte(cleanKeepLines(string(p)))
	}
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// hasControl reports whether p holds a byte cleanKeepLines would change
// (a control character other than a tab or a line break, or the lead
// byte of a C1 one); most of what a template writes holds none.
func hasControl(p []byte) bool {
	for _, c := range p {
		if (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f || c == 0xc2 {
			return true
		}
	}
	return false
}

func (c *ctxWriter) stop() {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
}

// cleanKeepLines is text.Clean for output meant to have lines and
// columns: each piece between line breaks and tabs is cleaned, the breaks
// and tabs are kept.
func cleanKeepLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		for j, c := range cells {
			cells[j] = text.Clean(c)
		}
		lines[i] = strings.Join(cells, "\t")
	}
	return strings.Join(lines, "\n")
}
