package record_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/record"
)

// frames are the offsets of the frames of kind in a segment.
func frames(seg []byte, kind byte) []int {
	var out []int
	for i := 0; ; {
		j := bytes.Index(seg[i:], []byte("CWR1"))
		if j < 0 {
			return out
		}
		if seg[i+j+4] == kind {
			out = append(out, i+j)
		}
		i += j + 4
	}
}

// TestDamagedSegmentIsReportedAndSkipped: a damaged answer frame, a
// damaged body and a frame cut off at the end are each reported; the
// other answers list and replay, and an answer whose body is damaged gives
// way to the one before it.
func TestDamagedSegmentIsReportedAndSkipped(t *testing.T) {
	dir := t.TempDir()
	chains, moments := recordSession(t, dir, 4)
	for i := 1; i < len(chains); i++ {
		if chains[i].Timestamp == chains[i-1].Timestamp {
			t.Fatal("two answers alike: the replay's choice could not be told")
		}
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "2026-11-20", "*.cwr"))
	if len(segs) != 1 {
		t.Fatalf("segments %v", segs)
	}
	seg, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	answers, bodies := frames(seg, 'A'), append(frames(seg, 'B'), frames(seg, 'D')...)
	if len(answers) != 4 || len(bodies) != 4 || len(frames(seg, 'D')) != 3 {
		t.Fatalf("%d answer and %d body frames (%d deltas), want 4 and 4 (3)", len(answers), len(bodies), len(frames(seg, 'D')))
	}
	seg[answers[1]+20] ^= 0xff // the second answer's facts
	seg[bodies[3]+40] ^= 0xff  // the fourth answer's body (a delta)
	cut := append([]byte(nil), seg[bodies[0]:bodies[0]+100]...)
	seg = append(seg, cut...) // a body frame cut off by a crash
	if err := os.WriteFile(segs[0], seg, 0o600); err != nil {
		t.Fatal(err)
	}
	days, err := record.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	probs := strings.Join(days[0].Problems, "\n")
	if days[0].Answers != 3 || !strings.Contains(probs, "damaged from byte") || !strings.Contains(probs, "cut off at byte") {
		t.Fatalf("answers %d, problems:\n%s", days[0].Answers, probs)
	}
	day, err := record.OpenDay(dir, api.NewDate(2026, 11, 20))
	if err != nil {
		t.Fatal(err)
	}
	defer day.Close()
	// want: the chain each moment replays as (the second answer is lost,
	// the fourth's body is damaged).
	for i, want := range []int{0, 0, 2, 2} {
		c := replayClient(t, day, moments[i])
		ch, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"})
		if err != nil {
			t.Fatalf("moment %d: %v", i, err)
		}
		if ch.Timestamp != chains[want].Timestamp {
			t.Fatalf("moment %d replayed the chain of %v, want answer %d's %v", i, ch.Timestamp, want, chains[want].Timestamp)
		}
	}
}

// childEnv names the folder a helper process records into.
const childEnv = "CHAINWATCH_RECORD_TEST_CHILD"

// TestTwoProcessesRecordSideBySide: two processes record the same day
// into the same folder at once and no answer is lost.
func TestTwoProcessesRecordSideBySide(t *testing.T) {
	if dir := os.Getenv(childEnv); dir != "" {
		n, _ := strconv.Atoi(os.Getenv(childEnv + "_N"))
		recordSession(t, dir, n)
		return
	}
	dir := t.TempDir()
	const n = 12
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var procs []*exec.Cmd
	var outs []*bytes.Buffer
	for range 2 {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestTwoProcessesRecordSideBySide$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"="+dir, fmt.Sprintf("%s_N=%d", childEnv, n))
		out := &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs, outs = append(procs, cmd), append(outs, out)
	}
	for i, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i])
		}
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "2026-11-20", "*.cwr"))
	days, err := record.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 2 || len(days) != 1 || days[0].Answers != 2*n || len(days[0].Problems) != 0 {
		t.Fatalf("segments %v, days %+v", segs, days)
	}
}
