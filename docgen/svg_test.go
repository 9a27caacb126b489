package main

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write docs/watch-screen.svg from the watch screen's golden frame")

// TestWatchScreenPictureIsTheGolden: docs/watch-screen.svg is the watch
// screen's golden frame (which TestGoldenWatchScreen holds to the App's
// real frame) drawn with its colours; a changed screen leaves it stale
// and fails here until `go test ./docgen -run Picture -update` (or go
// generate ./docgen) draws it again.
func TestWatchScreenPictureIsTheGolden(t *testing.T) {
	want, err := screenPicture("..")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", pictureFile)
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: the watch screen's golden frame changed; run go test ./docgen -run Picture -update", pictureFile)
	}
	// It is a picture of the screen: well-formed, with the screen's words
	// and more than a couple of colours.
	dec := xml.NewDecoder(bytes.NewReader(got))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", pictureFile, err)
		}
	}
	for _, word := range []string{">SPY<", "Strike", "Time &amp; Sales", "Events", "[SANDBOX]"} {
		if !bytes.Contains(got, []byte(word)) {
			t.Errorf("the picture lacks %q", word)
		}
	}
	fills := map[string]bool{}
	for _, m := range regexp.MustCompile(`fill="(#[0-9a-f]{6})"`).FindAllSubmatch(got, -1) {
		fills[string(m[1])] = true
	}
	if len(fills) < 6 {
		t.Errorf("the picture has %d colours, want the screen's (at least 6)", len(fills))
	}
}

// TestFrameSVGKeepsCellsAndColours: each run of one look is a text element
// on its cells, in its colour and weight; a background is a rectangle
// over its cells; a wide character takes two cells.
func TestFrameSVGKeepsCellsAndColours(t *testing.T) {
	frame := "\x1b[1;38;2;255;0;0mAB\x1b[0m C\x1b[48;2;0;0;255m<&>\x1b[0m\n界x"
	got, err := frameSVG([]byte(frame), 10, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{
		`<text x="0" y="12" textLength="16" lengthAdjust="spacingAndGlyphs" fill="#ff0000" font-weight="bold">AB</text>`,
		`<text x="16" y="12" textLength="16" lengthAdjust="spacingAndGlyphs" fill="` + defaultFg + `"> C</text>`,
		`<rect x="32" y="0" width="24" height="16" fill="#0000ff"/>`,
		`fill="` + defaultFg + `">&lt;&amp;&gt;</text>`,
		`<text x="0" y="28" textLength="80" lengthAdjust="spacingAndGlyphs" fill="` + defaultFg + `">界x`,
		`width="80" height="32"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the SVG lacks %s:\n%s", want, s)
		}
	}
}
