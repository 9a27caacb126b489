package cmd

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// withScriptMemory lowers the --jq heap bound for one test.
func withScriptMemory(t *testing.T, n int64) {
	t.Helper()
	old := scriptMemory
	scriptMemory = n
	t.Cleanup(func() { scriptMemory = old })
}

// TestJQMemoryIsBounded: item 6's expression (a string doubled forty
// times) reached 3.7 GB in a few hundred steps, under the step bound; it
// and the other classic blow-ups now stop at the memory bound, exit 2,
// print nothing and say so.
func TestJQMemoryIsBounded(t *testing.T) {
	withScriptBounds(t, 1<<40, 2*time.Minute, 1<<30, 1<<10)
	withScriptMemory(t, 64<<20)
	cases := []string{
		`reduce range(40) as $i ("x"; . + .) | length`,
		`[range(3e6)] | [., ., ., ., ., ., ., ., ., .] | flatten | length`,
		`[limit(1e9; repeat("0123456789"))] | length`,
	}
	if dataLimited {
		// One step, one value of 2 GB: only the kernel's limit stops it
		// before it is written (a -race build has none).
		cases = append(cases, `"x" * 2000000000 | length`)
	}
	for _, src := range cases {
		t.Run(src, func(t *testing.T) {
			var b bytes.Buffer
			start := time.Now()
			err := formatOf(t, exportFlags{jq: src}).WriteContext(t.Context(), &b, exportOf())
			if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "--jq: stopped at 64 MiB of memory") {
				t.Fatalf("%v (exit %d) after %s; want exit 2 and the memory bound", err, exitCode(err), time.Since(start))
			}
			if b.Len() != 0 {
				t.Errorf("printed %d bytes, want none", b.Len())
			}
		})
	}
}

// TestJQTimeBoundHoldsWithinAStep: one step of gojq (a regular
// expression over a 200 MB string) does not look at its context; the
// process it runs in is ended at the time bound all the same.
func TestJQTimeBoundHoldsWithinAStep(t *testing.T) {
	withScriptBounds(t, 1<<40, 100*time.Millisecond, 1<<30, 1<<10)
	withScriptMemory(t, 2<<30)
	start := time.Now()
	var b bytes.Buffer
	err := formatOf(t, exportFlags{jq: `"x" * 200000000 | [match("(x+)+y")] | length`}).WriteContext(t.Context(), &b, exportOf())
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "stopped after 100ms, the longest it may run") {
		t.Fatalf("%v (exit %d), want exit 2 and the time bound", err, exitCode(err))
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("stopped after %s", d)
	}
}

// TestJQChildKeepsTheMessages: an expression's own error and a bad
// expression read as before the child process, and a good one's values
// come back whole.
func TestJQChildKeepsTheMessages(t *testing.T) {
	var b bytes.Buffer
	err := formatOf(t, exportFlags{jq: `.[] | .iv | error`}).WriteContext(t.Context(), &b, exportOf())
	if exitCode(err) != ExitInput || err.Error() != "--jq: error: 0.21" || b.Len() != 0 {
		t.Errorf("%v (exit %d), %q", err, exitCode(err), b.String())
	}
	b.Reset()
	if err := formatOf(t, exportFlags{jq: `.[0].symbol, (.[1].iv | tojson)`}).WriteContext(t.Context(), &b, exportOf()); err != nil || b.String() != "SPY\nnull\n" {
		t.Errorf("%v, %q", err, b.String())
	}
}
