package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A measured figure in a comment goes stale the day the code or the
// machine changes, and nothing fails; docs/performance.md keeps the
// figures with the command, date and commit they come from, and a comment
// names the benchmark. These are the comments that may still quote a
// size, each for a reason that does not go stale with a measurement
// (at most five), by file and a piece of the comment's line.
var figureComments = map[string]string{
	"api/describe.go: 812 B, 48 kB, 11.2 MB":        "examples of how a size is written, not measurements",
	"cmd/history.go: 1.2 MB":                        "an example of how a size is written, not a measurement",
	"api/jsonkeys.go: 24 bytes are matched by":      "the width of the key matcher's two machine words, a fact of the code",
	"sandbox/market/brown.go: top 10 levels (8 KB)": "the size the code chooses for a walk's kept levels (10 levels of float64 nodes), not a measurement",
}

var (
	// figure is a number with a unit of time or size, or a speed-up, or
	// one in words ("tens of milliseconds", "megabytes of JSON").
	figure = regexp.MustCompile(`\b\d[\d.,]*\s?(ns|µs|us|ms|KB|kB|KiB|MB|MiB|GB|GiB|bytes|allocations|allocs)\b|\d(\.\d+)?x (faster|slower)|(?i)\b(a few|tens of|hundreds of|several) (nano|micro|milli)seconds|\b(kilo|mega|giga)bytes\b`)
	// bound marks a figure that is a limit, a default or a width the code
	// sets rather than one it was measured at.
	// measured marks a figure that was measured even beside a bound's
	// word ("default 256 MiB; SPX is ~11 MB"): a bound does not excuse it.
	measured = regexp.MustCompile(`(?i)\babout \d|~\s?\d|\bunder \d|\btakes? \d|\btook\b|\broughly\b|\bmeasured\b|\d\s?(ms|MB|kB|KB) (a|per) `)
	bound    = regexp.MustCompile(`(?i)at most|default|bound|\bcaps?\b|capped|limit|never near|first \d+ bytes|than \d+ bytes|within \d+ bytes|the \d+ bytes|\d+ bytes in a row|maxFormBody|held back|e\.g\.|within a few`)
)

// TestFewCommentsQuoteMeasuredFigures: outside tests and the third_party
// copies, a comment quotes a measured time or size only where
// figureComments allows it.
func TestFewCommentsQuoteMeasuredFigures(t *testing.T) {
	if len(figureComments) > 5 {
		t.Fatalf("%d comments may quote a figure, want at most 5", len(figureComments))
	}
	used := map[string]bool{}
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		if d.IsDir() {
			if rel == "third_party" || rel == "docs" || strings.HasPrefix(d.Name(), ".") && rel != ".." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, group := range f.Comments {
			for _, c := range group.List {
				for line := range strings.Lines(c.Text) {
					if !figure.MatchString(line) || bound.MatchString(line) && !measured.MatchString(line) {
						continue
					}
					key := allowed(rel, line)
					if key == "" {
						t.Errorf("%s quotes a measured figure (put it in docs/performance.md and name the benchmark): %s", rel, strings.TrimSpace(line))
					}
					used[key] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files, want the module's hundreds", files)
	}
	for key := range figureComments {
		if !used[key] {
			t.Errorf("figureComments allows %q, which no comment says any more: take it out", key)
		}
	}
}

// allowed is the figureComments key that lets file's line quote a figure.
func allowed(file, line string) string {
	for key := range figureComments {
		f, piece, _ := strings.Cut(key, ": ")
		if f == file && strings.Contains(line, piece) {
			return key
		}
	}
	return ""
}
