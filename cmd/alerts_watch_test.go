package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"
)

// watchAlertsFor runs `alerts --watch` with args until stop says it has
// seen enough of stdout (at most a minute), then ends it as Ctrl-C does,
// and returns the events and stderr.
func watchAlertsFor(t *testing.T, env map[string]string, stop func(out string) bool, args ...string) ([]map[string]any, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, _, err := cli{env: env, ctx: ctx, out: out, errOut: errOut}.run(t, append([]string{"alerts", "--watch"}, args...)...)
		done <- err
	}()
	for i := 0; i < 2400 && !stop(out.String()+errOut.String()); i++ {
		time.Sleep(25 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Ctrl-C: %v\n%s", err, errOut)
	}
	var evs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not one JSON object a line: %q", sc.Text())
		}
		evs = append(evs, ev)
	}
	return evs, errOut.String()
}

// TestAlertsWatchFromItsStart: a watch started at 10:30 reports the blocks
// printed from 10:30 on, not the morning's at once; --since 09:30 asks for
// those too. Premiums are in cents, prices in the text keep theirs.
func TestAlertsWatchFromItsStart(t *testing.T) {
	start := time.Date(2026, 11, 24, 10, 30, 0, 0, time.FixedZone("EST", -5*3600))
	blocks := func(out string) bool { return strings.Count(out, `"kind":"block"`) >= 3 }
	price := regexp.MustCompile(` block [\d,]+ x \d+\.\d{2,4} \(\$[\d,]+\) at \d\d:\d\d:\d\d$`)
	check := func(t *testing.T, evs []map[string]any, from time.Time) {
		t.Helper()
		n := 0
		for _, ev := range evs {
			if ev["kind"] != "block" {
				continue
			}
			n++
			at, err := time.Parse(time.RFC3339Nano, ev["time"].(string))
			if err != nil || at.Before(from) {
				t.Errorf("a block of %v (%v) before %v", ev["time"], err, from)
			}
			if p := ev["premium"].(float64); math.Round(p*100)/100 != p {
				t.Errorf("premium %v is not in cents", p)
			}
			if !price.MatchString(ev["text"].(string)) {
				t.Errorf("text %q: the price without its cents", ev["text"])
			}
		}
		if n == 0 {
			t.Fatalf("no block in %v", evs)
		}
	}

	evs, errOut := watchAlertsFor(t, alertsEnv(t, ""), blocks,
		"--sandbox-clock", start.Format(time.RFC3339), "--sandbox-speed", "600")
	check(t, evs, start)
	if t.Failed() {
		t.Log(errOut)
	}

	open := time.Date(2026, 11, 24, 9, 30, 0, 0, start.Location())
	evs, _ = watchAlertsFor(t, alertsEnv(t, ""), blocks,
		"--sandbox-clock", start.Format(time.RFC3339), "--sandbox-speed", "600", "--since", "09:30")
	check(t, evs, open)
	if at, _ := time.Parse(time.RFC3339Nano, evs[0]["time"].(string)); !at.Before(start) {
		t.Errorf("--since 09:30: the first event at %v, want the morning's first", at)
	}

	if _, _, err := (cli{env: alertsEnv(t, ""), now: clockAt}).run(t, "alerts", "--since", "09:30"); exitCode(err) != ExitInput {
		t.Errorf("--since without --watch: %v", err)
	}
}

// TestAlertsWatchClosedLine: started on a Friday after the close, the
// pause names its time zone and a wait in words, not 65h0m0s.
func TestAlertsWatchClosedLine(t *testing.T) {
	// The sandbox's clock runs from 16:30:00: on a loaded machine the
	// line may be written a second or two later.
	want := regexp.MustCompile(`chainwatch: 16:30:0\d ET: the market is closed; the alerts' fetches are paused until Mon 09:30 ET \(in 2d17h\)`)
	_, errOut := watchAlertsFor(t, alertsEnv(t, ""), func(s string) bool { return strings.Contains(s, "market is closed") },
		"--sandbox-clock", "2026-11-20T16:30:00-05:00")
	if !want.MatchString(errOut) {
		t.Fatalf("stderr:\n%s\nwant %q", errOut, want)
	}
}
