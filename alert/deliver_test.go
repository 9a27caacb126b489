package alert_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/feed/feedtest"
)

// script writes an executable shell script (a program of its own: the
// engine runs it without a shell).
func script(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the test's commands are shell scripts")
	}
	p := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitFile waits (bounded) for path to hold a whole line.
func waitFile(t *testing.T, path string) []byte {
	t.Helper()
	for range 200 {
		if b, err := os.ReadFile(path); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			return b
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s was not written in 5 s", path)
	return nil
}

// TestExecGetsTheEventOnce: a rule's command gets the event as one JSON
// line on stdin and as CHAINWATCH_ALERT_* variables, once per event: the
// same print in the first page after a restart fires nothing and runs
// nothing (the log has it).
func TestExecGetsTheEventOnce(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	hook := script(t, `cat >> "$1"; echo "$CHAINWATCH_ALERT_RULE $CHAINWATCH_ALERT_VALUE $CHAINWATCH_ALERT_SEQ" >> "$1.env"`)
	rule := alert.Rule{Name: "big", Kind: alert.KindBlock, Symbol: "SPY", MinSize: 500, Exec: []string{hook, out}}
	log, _ := alert.OpenLog(filepath.Join(dir, "alerts.jsonl"), 0)
	r := newRig(t, log, rule)
	if evs := r.run(tape(print(42, 700, 1, 0, call700))); len(evs) != 1 {
		t.Fatalf("%d events, want 1", len(evs))
	}
	env := waitFile(t, out+".env")
	var rec alert.Record
	if err := json.Unmarshal(waitFile(t, out), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Type != alert.Fired || rec.Rule != "big" || rec.Size != 700 || rec.Seq != 42 || rec.Contract != call700 {
		t.Errorf("stdin had %+v", rec)
	}
	if string(env) != "big 700 42\n" {
		t.Errorf("environment: %q", env)
	}
	r.eng.Close()
	log2, _ := alert.OpenLog(filepath.Join(dir, "alerts.jsonl"), 0)
	r.start(log2, rule)
	if evs := r.run(tape(print(42, 700, 1, 0, call700), print(43, 1, 1, 9, call700))); len(evs) != 0 {
		t.Errorf("after the restart the same print fired %+v", evs)
	}
	r.eng.Close() // waits for any command started
	if b, _ := os.ReadFile(out); strings.Count(string(b), "\n") != 1 {
		t.Errorf("the command ran %d times for one event", strings.Count(string(b), "\n"))
	}
}

// TestExecHangIsKilled: a command that does not end is killed at the
// timeout, and that is said.
func TestExecHangIsKilled(t *testing.T) {
	hook := script(t, "sleep 30")
	rule := spyAbove700
	rule.Exec = []string{hook}
	r := &rig{t: t}
	r.clock = feedtest.NewClock(open)
	r.src = feedtest.NewScript(r.clock)
	r.mon = r.src.Monitor(t, budget)
	eng, err := alert.New(alert.Options{Monitor: r.mon, Fetcher: r.src, ExecTimeout: 100 * time.Millisecond, Now: r.clock.Now}, withDefaults([]alert.Rule{rule}))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	r.eng, r.sub = eng, r.mon.Subscribe()
	eng.Start()
	r.run(func(*feedtest.Request) any { return quotes("SPY", 701, 20, 1, tod(10, 0, 0)) })
	n := next[alert.NoticeMsg](r)
	if !strings.Contains(n.Text, "killed after 100ms") || !n.Warn {
		t.Errorf("notice %q", n.Text)
	}
}

// TestLogStaysBounded: past its size the log is rewritten with its newest
// half and each rule's last state, and still knows what fired.
func TestLogStaysBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "alerts.jsonl")
	log, err := alert.OpenLog(path, 20)
	if err != nil {
		t.Fatal(err)
	}
	at := open
	var recs []alert.Record
	for i := range 50 {
		rule := "block"
		if i == 0 {
			rule = "price" // its only record: kept as its state
		}
		recs = append(recs, alert.Record{Type: alert.Fired, Def: rule, Event: alert.Event{Rule: rule, Seq: int64(i), Time: at.Add(time.Duration(i) * time.Second)}})
	}
	for _, rec := range recs {
		if _, err := log.Append([]alert.Record{rec}); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(path)
	if n := strings.Count(string(b), "\n"); n > 20 {
		t.Errorf("the log has %d lines, want at most 20", n)
	}
	again, _ := alert.OpenLog(path, 20)
	if armed, known := again.Armed("price", "price"); armed || !known {
		t.Errorf("the price rule's state was lost in the rewrite (armed %v, known %v)", armed, known)
	}
	if kept, _ := again.Append(recs[49:]); len(kept) != 0 {
		t.Errorf("the newest event fired again after the rewrite")
	}
	if !strings.Contains(string(b), fmt.Sprintf(`"seq":%d`, 49)) {
		t.Errorf("the newest record is not in the log")
	}
}

// TestLaggingReaderLosesNoEvent: a subscriber that does not read (a pipe
// that stalls) has its waiting FiredMsgs folded into one another by the
// monitor's bounded mailbox, every event kept.
func TestLaggingReaderLosesNoEvent(t *testing.T) {
	clock := feedtest.NewClock(open)
	mon := feedtest.NewScript(clock).Monitor(t, budget)
	sub := mon.Subscribe()
	for i := range 100 {
		mon.Post(alert.NoticeMsg{Text: fmt.Sprint(i)})
		mon.Post(alert.FiredMsg{Events: []alert.Event{{Seq: int64(i)}}})
	}
	var seqs []int64
	for _, m := range sub.Pending() {
		if f, ok := m.(alert.FiredMsg); ok {
			for _, e := range f.Events {
				seqs = append(seqs, e.Seq)
			}
		}
	}
	if len(seqs) != 100 || seqs[0] != 0 || seqs[99] != 99 {
		t.Errorf("the reader got %d events (%v…)", len(seqs), seqs[:min(len(seqs), 5)])
	}
}
