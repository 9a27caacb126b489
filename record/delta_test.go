package record_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/record"
	"chainwatch/sandbox"
)

// tee hands each answer to a recorder and keeps its body as received.
type tee struct {
	rec    *record.Recorder
	bodies [][]byte
}

func (t *tee) Record(a api.Answer) {
	t.bodies = append(t.bodies, append([]byte(nil), a.Body...))
	t.rec.Record(a)
}

// recordChains records n SPY chains two seconds apart with every
// keyEvery-th body whole, and returns the bodies as received and the
// day's one segment.
func recordChains(t *testing.T, dir string, n, keyEvery int) ([][]byte, string) {
	t.Helper()
	rec, err := record.Open(dir, record.WithKeyEvery(keyEvery))
	if err != nil {
		t.Fatal(err)
	}
	tap := &tee{rec: rec}
	clock := &moving{t: modeltest.Now}
	c := modeltest.StartSandbox(t, sandbox.Config{Now: clock.now}, api.WithRecorder(tap))
	for i := range n {
		clock.t = modeltest.Now.Add(time.Duration(i) * 2 * time.Second)
		if _, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil || rec.Notice() != "" {
		t.Fatalf("close: %v, notice %q", err, rec.Notice())
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "2026-11-20", "*.cwr"))
	if len(segs) != 1 {
		t.Fatalf("segments %v", segs)
	}
	return tap.bodies, segs[0]
}

// readBack is every body of the day in time order as Each hands it over.
func readBack(t *testing.T, dir string) ([][]byte, int, *record.Day) {
	t.Helper()
	day, err := record.OpenDay(dir, api.NewDate(2026, 11, 20))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(day.Close)
	var got [][]byte
	skipped, err := day.Each(func(r record.Recorded) error {
		got = append(got, r.Body)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, skipped, day
}

// TestDeltasReadBackAsReceived: after the first, each chain is written as
// its change from the one before, every third whole; each reads back
// byte for byte as the client received it, and takes a fraction of a
// whole one's room.
func TestDeltasReadBackAsReceived(t *testing.T) {
	dir := t.TempDir()
	bodies, segPath := recordChains(t, dir, 7, 3)
	seg, err := os.ReadFile(segPath)
	if err != nil {
		t.Fatal(err)
	}
	whole, deltas := frames(seg, 'B'), frames(seg, 'D')
	if len(whole) != 3 || len(deltas) != 4 {
		t.Fatalf("%d whole bodies and %d deltas, want 3 and 4 (B D D B D D B)", len(whole), len(deltas))
	}
	if size := frameSize(seg, deltas[0]); size*2 > frameSize(seg, whole[0]) {
		t.Fatalf("a delta takes %d bytes, a whole body %d", size, frameSize(seg, whole[0]))
	}
	got, skipped, _ := readBack(t, dir)
	if skipped != 0 || len(got) != len(bodies) {
		t.Fatalf("read back %d bodies, %d skipped; want %d", len(got), skipped, len(bodies))
	}
	for i := range bodies {
		if !bytes.Equal(got[i], bodies[i]) {
			t.Fatalf("body %d read back differently (%d bytes, want %d)", i, len(got[i]), len(bodies[i]))
		}
	}
}

// frameSize is the payload length of the frame at off.
func frameSize(seg []byte, off int) int {
	b := seg[off+5:]
	return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24
}

// TestDamagedBaseIsReportedAndItsDeltasSkipped: a whole body whose frame
// header is damaged is lost, and so are the deltas on it: the list says
// so, and their answers give way to none (nothing before them reads
// back), never to a body patched on the wrong base. A whole body with a
// damaged payload fails its deltas when read; the later whole body and
// its deltas read back as received.
func TestDamagedBaseIsReportedAndItsDeltasSkipped(t *testing.T) {
	for _, damage := range []string{"header", "payload"} {
		t.Run(damage, func(t *testing.T) {
			dir := t.TempDir()
			bodies, segPath := recordChains(t, dir, 6, 3) // B D D B D D
			seg, err := os.ReadFile(segPath)
			if err != nil {
				t.Fatal(err)
			}
			at := frames(seg, 'B')[0]
			if damage == "header" {
				seg[at] ^= 0xff // its magic: the reader finds the next frame
			} else {
				seg[at+100] ^= 0xff
			}
			if err := os.WriteFile(segPath, seg, 0o600); err != nil {
				t.Fatal(err)
			}
			days, err := record.List(dir)
			if err != nil {
				t.Fatal(err)
			}
			probs := strings.Join(days[0].Problems, "\n")
			if damage == "header" && (!strings.Contains(probs, "damaged from byte") || !strings.Contains(probs, "2 deltas rest on a body that is damaged or missing")) {
				t.Fatalf("problems:\n%s", probs)
			}
			got, skipped, day := readBack(t, dir)
			if skipped != 3 || len(got) != 3 {
				t.Fatalf("%d read back, %d skipped; want 3 and 3", len(got), skipped)
			}
			for i := range got {
				if !bytes.Equal(got[i], bodies[3+i]) {
					t.Fatalf("body %d read back differently", 3+i)
				}
			}
			c := replayClient(t, day, modeltest.Now.Add(3*time.Second))
			if _, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"}); !api.IsNotRecorded(err) {
				t.Fatalf("a moment whose bodies rest on the damaged one: %v", err)
			}
		})
	}
}

// TestFirstFormatReads: a recording the first format's writer made (no
// deltas: three one-expiry SPY chains two seconds apart) lists and
// replays as the sandbox answered then.
func TestFirstFormatReads(t *testing.T) {
	dir := filepath.Join("testdata", "format1")
	days, err := record.List(dir)
	if err != nil || len(days) != 1 || days[0].Answers != 3 || len(days[0].Problems) != 0 || len(days[0].Sources) != 0 {
		t.Fatalf("list %+v: %v", days, err)
	}
	day, err := record.OpenDay(dir, api.NewDate(2026, 11, 20))
	if err != nil {
		t.Fatal(err)
	}
	defer day.Close()
	clock := &moving{t: modeltest.Now}
	live := modeltest.StartSandbox(t, sandbox.Config{Now: clock.now})
	p := api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20", MinExpiry: "2026-11-20", MaxExpiry: "2026-11-20"}
	for i := range 3 {
		clock.t = modeltest.Now.Add(time.Duration(i) * 2 * time.Second)
		want, _, err := live.OptionAndUnderlyingQuotes(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got, resp, err := replayClient(t, day, clock.t).OptionAndUnderlyingQuotes(context.Background(), p)
		if err != nil || !resp.FromRecording {
			t.Fatalf("answer %d: %v", i, err)
		}
		if len(got.Options) == 0 || len(got.Options) != len(want.Options) || got.Timestamp != want.Timestamp || got.Options[len(got.Options)-1] != want.Options[len(want.Options)-1] {
			t.Fatalf("answer %d replayed as %v, %d contracts; want %v, %d", i, got.Timestamp, len(got.Options), want.Timestamp, len(want.Options))
		}
	}
}

// TestSourceMarksTheDay: a recorder told where its answers come from
// opens each segment with it; the list and the day say it, a URL's
// password is never written, and a recording without it has none.
func TestSourceMarksTheDay(t *testing.T) {
	for _, c := range []struct{ source, want string }{
		{record.SandboxSource, "sandbox"},
		{"https://ann:hunter2@api.example.com/v1", "https://api.example.com/v1"},
		{"", ""},
	} {
		dir := t.TempDir()
		recordSession(t, dir, 1, record.WithSource(c.source))
		days, err := record.List(dir)
		if err != nil || len(days) != 1 {
			t.Fatalf("list %v: %v", days, err)
		}
		if got := strings.Join(days[0].Sources, " "); got != c.want || days[0].Answers != 1 || len(days[0].Problems) != 0 {
			t.Fatalf("source %q: listed %+v", c.source, days[0])
		}
		day, err := record.OpenDay(dir, api.NewDate(2026, 11, 20))
		if err != nil {
			t.Fatal(err)
		}
		if day.Sandbox() != (c.want == "sandbox") {
			t.Fatalf("source %q: Sandbox() %v", c.source, day.Sandbox())
		}
		day.Close()
		segs, _ := filepath.Glob(filepath.Join(dir, "2026-11-20", "*.cwr"))
		if seg, _ := os.ReadFile(segs[0]); bytes.Contains(seg, []byte("hunter2")) {
			t.Fatal("the URL's password was written")
		}
	}
}
