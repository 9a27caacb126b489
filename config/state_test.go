package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestUserStateDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, err := UserStateDir(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})); err != nil || d != filepath.Join("/s", "chainwatch") {
		t.Fatal(d, err)
	}
	if runtime.GOOS != "windows" {
		if d, err := UserStateDir(env(map[string]string{"HOME": "/h"})); err != nil || d != "/h/.local/state/chainwatch" {
			t.Fatal(d, err)
		}
	}
	if _, err := UserStateDir(env(map[string]string{"XDG_STATE_HOME": "rel"})); err == nil {
		t.Fatal("a relative XDG_STATE_HOME was accepted")
	}
	if _, err := UserStateDir(env(nil)); err == nil {
		t.Fatal("no HOME gave a directory")
	}
}

func TestUserCacheDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, err := UserCacheDir(env(map[string]string{"XDG_CACHE_HOME": "/c", "HOME": "/h"})); err != nil || d != filepath.Join("/c", "chainwatch") {
		t.Fatal(d, err)
	}
	if runtime.GOOS != "windows" {
		if d, err := UserCacheDir(env(map[string]string{"HOME": "/h"})); err != nil || d != "/h/.cache/chainwatch" {
			t.Fatal(d, err)
		}
	}
	if _, err := UserCacheDir(env(map[string]string{"XDG_CACHE_HOME": "rel"})); err == nil {
		t.Fatal("a relative XDG_CACHE_HOME was accepted")
	}
}

func TestRecentRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "chainwatch")
	st := State{dir: dir}
	if got, err := st.Recent(); err != nil || len(got) != 0 {
		t.Fatalf("no file yet: %v %v", got, err)
	}
	if err := st.SaveRecent([]string{"qqq", "SPY", "QQQ", "not a symbol", "", "aapl"}); err != nil {
		t.Fatal(err)
	}
	got, err := st.Recent()
	if err != nil || !slices.Equal(got, []string{"QQQ", "SPY", "AAPL"}) {
		t.Fatalf("recent %v %v", got, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, RecentFile))
	if string(data) != "QQQ\nSPY\nAAPL\n" {
		t.Fatalf("file %q", data)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("state dir %v %v", fi.Mode(), err)
		}
	}
	// No temporary files left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("left %s", e.Name())
		}
	}
}

func TestRecentKeepsTwenty(t *testing.T) {
	st := State{dir: t.TempDir()}
	var list []string
	for i := range 30 {
		list = append(list, fmt.Sprintf("S%d", i))
	}
	if err := st.SaveRecent(list); err != nil {
		t.Fatal(err)
	}
	got, _ := st.Recent()
	if len(got) != MaxRecent || got[0] != "S0" || got[MaxRecent-1] != "S19" {
		t.Fatalf("recent %v", got)
	}
	// A hand-edited file: blank lines, junk, duplicates and lower case.
	os.WriteFile(filepath.Join(st.dir, RecentFile), []byte("\nspy\r\nSPY\n$$$\nIWM"), 0o600)
	if got, err := st.Recent(); err != nil || !slices.Equal(got, []string{"SPY", "IWM"}) {
		t.Fatalf("hand-edited %v %v", got, err)
	}
}

func TestStateWithoutDirectory(t *testing.T) {
	st := OpenState(func(string) string { return "" })
	if got, err := st.Recent(); err != nil || got != nil {
		t.Fatalf("recent %v %v", got, err)
	}
	if st.FirstRunDone() {
		t.Fatal("a marker without a directory")
	}
	if err := st.SaveRecent([]string{"SPY"}); err == nil || !strings.Contains(err.Error(), "state directory") {
		t.Fatalf("save: %v", err)
	}
	if err := st.MarkFirstRun(); err == nil {
		t.Fatal("marked without a directory")
	}
}

func TestFirstRunMarker(t *testing.T) {
	st := State{dir: filepath.Join(t.TempDir(), "chainwatch")}
	if st.FirstRunDone() {
		t.Fatal("done before marking")
	}
	if err := st.MarkFirstRun(); err != nil {
		t.Fatal(err)
	}
	if !st.FirstRunDone() {
		t.Fatal("not done after marking")
	}
	if err := st.MarkFirstRun(); err != nil { // again: harmless
		t.Fatal(err)
	}
}

func TestStateUnwritable(t *testing.T) {
	// The state "directory" is a file: every write fails, with a reason.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	st := State{dir: file}
	if err := st.SaveRecent([]string{"SPY"}); err == nil || !strings.Contains(err.Error(), "recent symbols") {
		t.Fatalf("save: %v", err)
	}
	if err := st.MarkFirstRun(); err == nil || !strings.Contains(err.Error(), "first run") {
		t.Fatalf("mark: %v", err)
	}
	if _, err := st.Recent(); err == nil {
		t.Fatal("reading under a file succeeded")
	}
}
