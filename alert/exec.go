package alert

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"chainwatch/config"
	"chainwatch/text"
)

// runner runs the events' commands: each without a shell (a program and
// its arguments), the event as one JSON line on stdin and as CHAINWATCH_
// ALERT_* variables, its output kept off the screen, killed (its whole
// process group) at the timeout. At most config.AlertExecParallel run at
// once and config.AlertExecQueue wait; an event past them is logged but
// its command is not run, and that is said: a flood of events must not
// become a flood of processes.
type runner struct {
	ctx     context.Context
	timeout time.Duration
	say     func(NoticeMsg)
	queue   chan job
	wg      sync.WaitGroup

	mu      sync.Mutex
	dropped int
	saidAt  time.Time
}

type job struct {
	ev   Event
	argv []string
}

func newRunner(ctx context.Context, timeout time.Duration, say func(NoticeMsg)) *runner {
	r := &runner{ctx: ctx, timeout: timeout, say: say, queue: make(chan job, config.AlertExecQueue)}
	for range config.AlertExecParallel {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case j := <-r.queue:
					r.exec(j)
				}
			}
		}()
	}
	return r
}

// run queues argv for ev, or counts it dropped when the queue is full.
func (r *runner) run(ev Event, argv []string) {
	select {
	case r.queue <- job{ev, argv}:
	default:
		r.mu.Lock()
		r.dropped++
		n, say := r.dropped, time.Since(r.saidAt) >= config.AlertNoticeEvery
		if say {
			r.saidAt, r.dropped = time.Now(), 0
		}
		r.mu.Unlock()
		if say {
			r.say(NoticeMsg{Text: fmt.Sprintf("alerts: %d commands not run: %d are running or waiting already (the events are logged)",
				n, config.AlertExecParallel+config.AlertExecQueue), Warn: true})
		}
	}
}

// wait waits for the workers once the context is done.
func (r *runner) wait() { r.wg.Wait() }

// stderrMax is how much of a failed command's stderr is said.
const stderrMax = 512

// exec runs one command and says when it failed or was killed.
func (r *runner) exec(j job) {
	ctx, cancel := context.WithTimeout(r.ctx, r.timeout)
	defer cancel()
	rec := Record{Type: Fired, Event: j.ev}
	cmd := exec.CommandContext(ctx, j.argv[0], j.argv[1:]...)
	cmd.Stdin = bytes.NewReader(append(rec.JSON(), '\n'))
	cmd.Env = append(os.Environ(), eventEnv(&j.ev)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &limited{b: &stderr, n: stderrMax}
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	name := text.Quote(j.argv[0])
	switch {
	case err == nil:
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.say(NoticeMsg{Text: fmt.Sprintf("alert %s: command %s killed after %s", j.ev.Rule, name, r.timeout), Warn: true})
	case r.ctx.Err() != nil:
	default:
		msg := fmt.Sprintf("alert %s: command %s: %v", j.ev.Rule, name, err)
		if s := text.OneLine(strings.TrimSpace(stderr.String()), 200); s != "" {
			msg += ": " + s
		}
		r.say(NoticeMsg{Text: msg, Warn: true})
	}
}

// eventEnv is the event as environment variables, for a script that
// reads no JSON.
func eventEnv(ev *Event) []string {
	return []string{
		"CHAINWATCH_ALERT_RULE=" + ev.Rule,
		"CHAINWATCH_ALERT_KIND=" + ev.Kind,
		"CHAINWATCH_ALERT_SYMBOL=" + ev.Symbol,
		"CHAINWATCH_ALERT_CONTRACT=" + ev.Contract,
		"CHAINWATCH_ALERT_VALUE=" + strconv.FormatFloat(ev.Value, 'f', -1, 64),
		"CHAINWATCH_ALERT_LEVEL=" + strconv.FormatFloat(ev.Level, 'f', -1, 64),
		"CHAINWATCH_ALERT_TIME=" + ev.Time.Format(time.RFC3339Nano),
		"CHAINWATCH_ALERT_SEQ=" + strconv.FormatInt(ev.Seq, 10),
		"CHAINWATCH_ALERT_TEXT=" + ev.Text,
	}
}

// limited keeps the first n bytes written to it.
type limited struct {
	b *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// SplitCommand splits --exec's value into a program and its arguments at
// blanks, with '...' and "..." keeping blanks in one argument; nothing
// else (no variables, pipes or globs: there is no shell).
func SplitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, c := range s {
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("%s: a quote is not closed", text.Quote(s))
	}
	if in {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, errors.New("no command given")
	}
	return out, nil
}
