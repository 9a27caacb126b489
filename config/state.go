package config

import (
	"bufio"
	"bytes"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"chainwatch/api"
)

// The state directory holds what chainwatch remembers between runs that is
// neither configuration nor a credential: losing it costs a little
// convenience, so every failure here is a warning, never a reason not to
// show the screen.
const (
	RecentFile     = "recent"         // one symbol per line, most recent first
	FirstRunMarker = "first-run-done" // exists once the welcome banner was shown
	// SandboxKeys holds the embedded sandbox's signing keys (0600), made
	// on its first start: an RSA key takes longer to make than the rest
	// of the start. Unlike the files above, it is refused, not skipped,
	// when others may read it.
	SandboxKeys = "sandbox-keys.pem"
	// SandboxCache is the embedded sandbox's directory under
	// UserCacheDir: what it computes once a day and may lose at no cost.
	SandboxCache = "sandbox"
)

// UserStateDir is $XDG_STATE_HOME/chainwatch, by default
// ~/.local/state/chainwatch (%LocalAppData%\chainwatch on Windows), from
// getenv for the same reason as UserConfigDir.
func UserStateDir(getenv func(string) string) (string, error) {
	return xdgDir(getenv, "XDG_STATE_HOME", ".local", "state")
}

// xdgDir is $env/chainwatch, by default ~/<home...>/chainwatch
// (%LocalAppData%\chainwatch on Windows): the state and the data
// directories, which differ only in their variable and default.
func xdgDir(getenv func(string) string, env string, home ...string) (string, error) {
	if dir := getenv(env); dir != "" {
		if !filepath.IsAbs(dir) {
			return "", errors.New("the path in $" + env + " is relative")
		}
		return filepath.Join(dir, "chainwatch"), nil
	}
	if runtime.GOOS == "windows" {
		if dir := getenv("LocalAppData"); dir != "" {
			return filepath.Join(dir, "chainwatch"), nil
		}
		return "", errors.New("%LocalAppData% is not set")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(append(append([]string{h}, home...), "chainwatch")...), nil
	}
	return "", errors.New("neither $" + env + " nor $HOME is set")
}

// State reads and writes the state directory. The zero value (no
// directory known) remembers nothing and reports why on every write.
type State struct {
	dir    string
	dirErr error // why dir is empty
}

func OpenState(getenv func(string) string) State {
	dir, err := UserStateDir(getenv)
	return State{dir: dir, dirErr: err}
}

// In is the state kept in the subdirectory name (chainwatch serve keeps
// each trader's apart); the zero State stays one.
func (s State) In(name string) State {
	if s.dir == "" {
		return s
	}
	return State{dir: filepath.Join(s.dir, name)}
}

// Dir is the state directory; "" when none is known.
func (s State) Dir() string { return s.dir }

func (s State) path(name string) (string, error) {
	if s.dir == "" {
		err := s.dirErr
		if err == nil {
			err = errors.New("no state directory")
		}
		return "", fmt.Errorf("cannot find the state directory: %w", err)
	}
	return filepath.Join(s.dir, name), nil
}

// maxRecentFile bounds what Recent reads: 20 symbols of at most 10
// characters a line.
const maxRecentFile = 64 << 10

// recent returns the remembered symbols, most recent first; none when the
// file does not exist yet. Lines that are not symbols (a hand edit, a
// torn file from elsewhere) are skipped rather than failing the load.
func (s State) Recent() ([]string, error) {
	p, err := s.path(RecentFile)
	if err != nil {
		if s.dir == "" {
			return nil, nil // nothing can have been remembered
		}
		return nil, err
	}
	data, _, err := api.ReadRegularFile(p, maxRecentFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the recent symbols: %w", err)
	}
	var list []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		list = append(list, sc.Text())
	}
	return normalizeRecent(list), nil
}

// SaveRecent replaces the recent file with list (upper-cased, without
// duplicates or non-symbols, at most MaxRecent). The write is atomic so
// that two chainwatch windows closing together leave one list or the
// other, never a mix.
func (s State) SaveRecent(list []string) error {
	p, err := s.path(RecentFile)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, sym := range normalizeRecent(list) {
		b.WriteString(sym)
		b.WriteByte('\n')
	}
	if err := api.WriteFileAtomic(p, []byte(b.String())); err != nil {
		return fmt.Errorf("cannot save the recent symbols: %w", err)
	}
	return nil
}

// FirstRunDone reports whether the welcome banner was shown before. A
// marker that cannot be checked counts as absent: showing the banner
// once too often is harmless.
func (s State) FirstRunDone() bool {
	p, err := s.path(FirstRunMarker)
	if err != nil {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

// MarkFirstRun records that the welcome banner has been shown.
func (s State) MarkFirstRun() error {
	p, err := s.path(FirstRunMarker)
	if err != nil {
		return err
	}
	if err := api.WriteFileAtomic(p, nil); err != nil {
		return fmt.Errorf("cannot record the first run: %w", err)
	}
	return nil
}

// normalizeRecent keeps the first occurrence of each valid symbol,
// upper-cased, at most MaxRecent of them.
func normalizeRecent(list []string) []string {
	out := make([]string, 0, min(len(list), MaxRecent))
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		sym, err := ParseSymbol(s)
		if err != nil || seen[sym] {
			continue
		}
		seen[sym] = true
		out = append(out, sym)
		if len(out) == MaxRecent {
			break
		}
	}
	return out
}
