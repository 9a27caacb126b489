package config

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"chainwatch/config/configtest"
)

// commentedWatchlist is a watchlist as a trader keeps one: a symbol a
// line, notes beside and above them, and a bad entry or two.
const commentedWatchlist = `# my config
symbol = "QQQ"   # the usual

watchlist = [  # what I watch
  "SPY",       # the market
  # tech, for earnings season
  "aapl",
  "S P Y",     # a typo
  'NVDA',
  "SPY",       # again
  # more to come
]
theme = "dark"

# the budget: keep it low
[budget]
share = 0.5   # half
`

func TestWatchlistLoadSkipsBadEntriesWithTheirLines(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), commentedWatchlist, 0o600)
	fc, _, err := Load(path, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fc.WatchlistSymbols(); !slices.Equal(got, []string{"SPY", "AAPL", "NVDA"}) {
		t.Fatalf("watchlist %v", got)
	}
	warn := fc.WatchlistWarnings()
	if len(warn) != 2 ||
		!strings.HasPrefix(warn[0], path+":8: watchlist: symbol \"S P Y\": a blank is not part of a symbol") || !strings.HasSuffix(warn[0], "; skipped") ||
		warn[1] != path+":10: watchlist: SPY is already on the watchlist (line 5); skipped" {
		t.Fatalf("warnings:\n%s", strings.Join(warn, "\n"))
	}
	if fc.Symbol != "QQQ" || fc.Theme != "dark" {
		t.Fatalf("the other keys: %+v", fc)
	}
}

func TestWatchlistAbsentEmptyAndTooLong(t *testing.T) {
	dir := t.TempDir()
	fc, _, err := Load(configtest.Write(t, dir, "symbol = \"SPY\"\n", 0o600), true, nil)
	if err != nil || fc.Watchlist != nil || !slices.Equal(fc.WatchlistSymbols(), DefaultWatchlist) {
		t.Fatalf("absent: %v %v", fc.Watchlist, err)
	}
	fc, _, err = Load(configtest.Write(t, dir, "watchlist = []\n", 0o600), true, nil)
	if err != nil || fc.Watchlist == nil || len(fc.WatchlistSymbols()) != 0 {
		t.Fatalf("an emptied list must stay empty: %v %v", fc.Watchlist, err)
	}
	var long []string
	for i := range MaxWatchlist + 2 {
		long = append(long, tomlString("S"+strings.Repeat("X", i/26)+string(rune('A'+i%26))))
	}
	fc, _, err = Load(configtest.Write(t, dir, "watchlist = [\n"+strings.Join(long, ",\n")+"\n]\n", 0o600), true, nil)
	if err != nil || len(fc.WatchlistSymbols()) != MaxWatchlist || len(fc.WatchlistSkipped) != 2 ||
		fc.WatchlistSkipped[0].Line != MaxWatchlist+2 || !strings.Contains(fc.WatchlistSkipped[0].Msg, "past the 100 symbols") {
		t.Fatalf("too long: %d kept, %+v, %v", len(fc.WatchlistSymbols()), fc.WatchlistSkipped, err)
	}
	// A value of the wrong type is an error of the file, as for any key.
	if _, _, err := Load(configtest.Write(t, dir, "watchlist = \"SPY\"\n", 0o600), true, nil); err == nil || !strings.Contains(err.Error(), "watchlist") {
		t.Fatalf("a string for the list: %v", err)
	}
}

// TestSaveWatchlistKeepsComments: reordering, removing and adding keep
// every byte outside the array, each symbol's comments go where it goes,
// and the skipped entries are dropped.
func TestSaveWatchlistKeepsComments(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), commentedWatchlist, 0o600)
	if err := SaveWatchlist(path, []string{"NVDA", "AAPL", "SPY", "TSLA"}, nil); err != nil {
		t.Fatal(err)
	}
	want := `# my config
symbol = "QQQ"   # the usual

watchlist = [ # what I watch
  'NVDA',
  # tech, for earnings season
  "aapl",
  "SPY", # the market
  "TSLA",
  # more to come
]
theme = "dark"

# the budget: keep it low
[budget]
share = 0.5   # half
`
	if got := readFile(t, path); got != want {
		t.Fatalf("saved:\n%s\nwant:\n%s", got, want)
	}
	fc, _, err := Load(path, true, nil)
	if err != nil || !slices.Equal(fc.WatchlistSymbols(), []string{"NVDA", "AAPL", "SPY", "TSLA"}) || len(fc.WatchlistSkipped) != 0 {
		t.Fatalf("read back: %v %+v %v", fc.WatchlistSymbols(), fc.WatchlistSkipped, err)
	}
	// Removing a symbol takes its comments with it; the rest stay.
	if err := SaveWatchlist(path, []string{"SPY", "NVDA"}, nil); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if strings.Contains(got, "tech, for earnings") || !strings.Contains(got, "  \"SPY\", # the market\n  'NVDA',\n  # more to come\n]\ntheme") {
		t.Fatalf("after removing AAPL and TSLA:\n%s", got)
	}
	if fi, err := os.Stat(path); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode: %v %v", fi.Mode(), err)
	}
}

func TestSaveWatchlistOneLineStaysOneLine(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), "watchlist = [\"SPY\", \"QQQ\"] # short\nmode = \"live\"\r\n", 0o644)
	if err := SaveWatchlist(path, []string{"QQQ", "IWM", "spy"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "watchlist = [\"QQQ\", \"IWM\", \"SPY\"] # short\nmode = \"live\"\r\n" {
		t.Fatalf("saved %q", got)
	}
}

func TestSaveWatchlistAddsTheKey(t *testing.T) {
	dir := t.TempDir()
	// Above the first table and the comment that introduces it.
	path := configtest.Write(t, dir, "symbol = \"SPY\"\n# the service\n[service]\nclient_id = \"x\"\n", 0o600)
	if err := SaveWatchlist(path, []string{"SPY", "QQQ"}, nil); err != nil {
		t.Fatal(err)
	}
	want := "symbol = \"SPY\"\n\n" + watchlistComment + "\nwatchlist = [\"SPY\", \"QQQ\"]\n\n# the service\n[service]\nclient_id = \"x\"\n"
	if got := readFile(t, path); got != want {
		t.Fatalf("saved:\n%s\nwant:\n%s", got, want)
	}
	// No table: at the end. A long list is one symbol a line.
	path = configtest.Write(t, filepath.Join(dir, "b"), "theme = \"dark\"", 0o600)
	long := slices.Clone(DefaultWatchlist)
	long = append(long, "META", "GOOGL", "AMD", "NFLX", "DIA", "XLF", "XLE", "GLD")
	if err := SaveWatchlist(path, long, nil); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if !strings.HasPrefix(got, "theme = \"dark\"\n\n"+watchlistComment+"\nwatchlist = [\n  \"SPY\",\n  \"QQQ\",\n") || !strings.HasSuffix(got, "  \"GLD\",\n]\n") {
		t.Fatalf("saved:\n%s", got)
	}
	// No file: created, private.
	path = filepath.Join(dir, "new", "config.toml")
	if err := SaveWatchlist(path, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != watchlistComment+"\nwatchlist = []\n" {
		t.Fatalf("created %q", got)
	}
	if fi, err := os.Stat(path); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode: %v %v", fi.Mode(), err)
	}
}

func TestSaveWatchlistRefuses(t *testing.T) {
	dir := t.TempDir()
	body := "watchlist = [\"SPY\", '''QQQ''']\n"
	path := configtest.Write(t, dir, body, 0o600)
	for _, tc := range []struct {
		list []string
		want string
	}{
		{[]string{"SPY", "S P Y"}, `symbol "S P Y"`},
		{[]string{"SPY", "spy"}, "SPY is on the list twice"},
		{[]string{"SPY"}, ":1: the watchlist is not a plain array"},
	} {
		err := SaveWatchlist(path, tc.list, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "cannot save the watchlist: ") {
			t.Errorf("%v: %v", tc.list, err)
		}
	}
	if got := readFile(t, path); got != body {
		t.Fatalf("a refused save changed the file: %q", got)
	}
	// A file that does not load is not edited.
	bad := configtest.Write(t, filepath.Join(dir, "bad"), "watchlist = [\"SPY\"]\nmode = \"fast\"\n", 0o600)
	if err := SaveWatchlist(bad, []string{"QQQ"}, nil); err == nil || !strings.Contains(err.Error(), "does not load, fix it first") {
		t.Fatalf("bad file: %v", err)
	}
}

// TestScanSaveKeepsTheWatchlist: the two editors of the file leave each
// other's part alone.
func TestScanSaveKeepsTheWatchlist(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), commentedWatchlist, 0o600)
	if err := SaveScan(path, scanOf("Alpha", "iv30 > 40"), nil); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); !strings.HasPrefix(got, commentedWatchlist) {
		t.Fatalf("the scan's save changed the text before it:\n%s", got)
	}
	if err := SaveWatchlist(path, []string{"SPY"}, nil); err != nil {
		t.Fatal(err)
	}
	if names := savedNames(t, path); !slices.Equal(names, []string{"Alpha"}) {
		t.Fatalf("scans after the watchlist's save: %v", names)
	}
}
