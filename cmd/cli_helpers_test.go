package cmd

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// cli is one in-process run of chainwatch: its environment, input and
// "browser". Nothing comes from the real process, so tests never read the
// developer's token file or open a window.
type cli struct {
	env     map[string]string
	in      io.Reader
	browser func(string) error
	ctx     context.Context
	out     *syncBuffer // optional: read while the command runs
	errOut  *syncBuffer // optional: read while the command runs
	now     func() time.Time
}

func (c cli) deps(out, errOut io.Writer) Deps {
	in := c.in
	if in == nil {
		in = strings.NewReader("")
	}
	browser := c.browser
	if browser == nil {
		browser = func(string) error { return io.EOF } // "no browser here"
	}
	return Deps{
		in: in, out: out, errOut: errOut, openBrowser: browser,
		getenv: func(k string) string { return c.env[k] }, now: c.now,
	}
}

func (c cli) run(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	out := c.out
	if out == nil {
		out = &syncBuffer{}
	}
	errOut := c.errOut
	if errOut == nil {
		errOut = &syncBuffer{}
	}
	cmd := NewCmdRoot(c.deps(out, errOut), nil)
	cmd.SetArgs(args)
	ctx := c.ctx
	if ctx == nil {
		ctx = t.Context()
	}
	err := cmd.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

// syncBuffer is a bytes.Buffer safe to read while a command writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}
