package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// userDocs is README.md and every Markdown file under docs/, by their path
// from the module's root.
func userDocs(t *testing.T) map[string]string {
	t.Helper()
	docs := map[string]string{}
	add := func(path string) {
		b, err := os.ReadFile(filepath.Join("..", path))
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.ToSlash(path)] = string(b)
	}
	add("README.md")
	err := filepath.WalkDir("../docs", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			add(strings.TrimPrefix(path, "../"))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

var (
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fenced  = regexp.MustCompile("(?ms)^```.*?^```")
	heading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
)

// TestDocLinksResolve: every relative link in README.md and docs/ names a
// file or folder that exists, and a #fragment names a heading of the page
// it points to (GitHub's anchors: lower case, punctuation dropped, blanks
// to hyphens).
func TestDocLinksResolve(t *testing.T) {
	docs := userDocs(t)
	links := 0
	for page, text := range docs {
		for _, m := range mdLink.FindAllStringSubmatch(fenced.ReplaceAllString(text, ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, frag, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
			}
			if _, err := os.Stat(filepath.Join("..", path)); err != nil {
				t.Errorf("%s: the link %s resolves to nothing (%s)", page, target, path)
				continue
			}
			if frag != "" && !anchors(docs[path])[frag] {
				t.Errorf("%s: the link %s names no heading of %s", page, target, path)
			}
		}
	}
	if links < 50 {
		t.Errorf("found %d relative links, want the docs' many (is the pattern still right?)", links)
	}
}

// anchors are the fragments a page's headings answer to.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(fenced.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ' || r == '-':
				b.WriteRune('-')
			case r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

// TestREADMEIsTheFrontPage: README.md is short, with the picture of the
// screen, the two commands and links into docs/.
func TestREADMEIsTheFrontPage(t *testing.T) {
	readme := userDocs(t)["README.md"]
	if n := strings.Count(readme, "\n"); n > 200 {
		t.Errorf("README.md has %d lines, want at most 200: the rest belongs in docs/", n)
	}
	for _, want := range []string{"```sh\ngo run .\n```", "```sh\ngo test -race ./...\n```", "](" + pictureFile + ")",
		"](docs/README.md)", "](docs/watch.md)", "](docs/scripting.md)", "](docs/reference/chainwatch.md)"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
}

// TestDocsTellNoBuildHistory: the user's documents say what chainwatch
// does, not how this repository came to be.
func TestDocsTellNoBuildHistory(t *testing.T) {
	history := regexp.MustCompile(`(?i)issue by issue|the issue's|this issue|\bitem \d+\b`)
	for page, text := range userDocs(t) {
		for _, m := range history.FindAllString(text, -1) {
			t.Errorf("%s says %q", page, m)
		}
	}
}

// TestDocsNameEveryTopLevelPackage: some page of docs/ names each folder at
// the module's root that holds Go code, as `name/`.
func TestDocsNameEveryTopLevelPackage(t *testing.T) {
	var all strings.Builder
	for page, text := range userDocs(t) {
		if strings.HasPrefix(page, "docs/") {
			all.WriteString(text)
		}
	}
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "docs" {
			continue
		}
		if !holdsGo(t, filepath.Join("..", e.Name())) {
			continue
		}
		named++
		if !strings.Contains(all.String(), "`"+e.Name()+"/") {
			t.Errorf("no page of docs/ names the package `%s/`", e.Name())
		}
	}
	if named < 15 {
		t.Errorf("found %d top-level packages, want the module's twenty-odd", named)
	}
}

// holdsGo reports whether dir or a folder below it holds a .go file.
func holdsGo(t *testing.T, dir string) bool {
	found := false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			found = true
			return fs.SkipAll
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestPerformanceFiguresCarryTheirCommit: docs/performance.md's table has
// at least ten figures, each with the command that measures it, the date
// and the commit it was measured on.
func TestPerformanceFiguresCarryTheirCommit(t *testing.T) {
	text := userDocs(t)["docs/performance.md"]
	commit := regexp.MustCompile("`[0-9a-f]{7,12}`")
	date := regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)
	rows := 0
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| what ") || strings.HasPrefix(line, "| ---") {
			continue
		}
		rows++
		if !commit.MatchString(line) || !date.MatchString(line) || !strings.Contains(line, "`go test ") && !strings.Contains(line, "`chainwatch ") {
			t.Errorf("a figure without its command, date or commit: %s", strings.TrimSpace(line))
		}
	}
	if rows < 10 {
		t.Errorf("docs/performance.md has %d figures, want at least 10", rows)
	}
}
