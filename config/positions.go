package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"chainwatch/api"
)

// The positions file, positions.toml beside config.toml: the strategies
// saved with their fills, one [[position]] table each, open or closed.
// Like the watchlist and the saved scans it is the user's to edit and
// comment; chainwatch edits it as text, one block at a time, and puts
// the result in place only after it reads back as intended (0600, a
// regular file, at most MaxFileSize). A closed or rolled position stays
// in the file with its closing fills: the history of the trade.

// Position is one [[position]]. Legs are in the strategy syntax, each
// with its fill ("+1xSPY261218C00700000@10.69"); package strategy reads
// them (config does not import it).
type Position struct {
	ID     int       `toml:"id"`
	Name   string    `toml:"name"`
	Symbol string    `toml:"symbol"`
	Opened time.Time `toml:"opened"`
	Legs   []string  `toml:"legs"`
	// Closed is when it was closed (zero: open), Close each leg's closing
	// fill, RolledTo the position it was rolled into (0: none).
	Closed   time.Time `toml:"closed,omitempty"`
	Close    []float64 `toml:"close,omitempty"`
	RolledTo int       `toml:"rolled_to,omitempty"`
}

// Open reports whether the position is still held.
func (p *Position) Open() bool { return p.Closed.IsZero() }

type positionsFile struct {
	Position []Position `toml:"position"`
}

// PositionsPath is positions.toml in the config file's directory.
func PositionsPath(configPath string) string {
	if configPath == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(configPath), "positions.toml")
}

// LoadPositions reads the positions file; none is no positions.
func LoadPositions(path string) ([]Position, error) {
	data, _, err := api.ReadRegularFile(path, MaxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, api.ErrNotRegular), errors.Is(err, api.ErrTooLarge):
		return nil, fmt.Errorf("positions file %w", err)
	case err != nil:
		return nil, fmt.Errorf("cannot read the positions file: %w", err)
	}
	var pf positionsFile
	md, err := toml.Decode(string(data), &pf)
	if err != nil {
		return nil, tomlError(path, string(data), err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s (known: position.id, name, symbol, opened, legs, closed, close, rolled_to)", path, echoKey(und[0].String()))
	}
	seen := map[int]bool{}
	for i, p := range pf.Position {
		switch {
		case p.ID <= 0 || seen[p.ID]:
			return nil, fmt.Errorf("%s: position %d: id %d is not a new number above 0", path, i+1, p.ID)
		case len(p.Legs) == 0:
			return nil, fmt.Errorf("%s: position %d has no legs", path, p.ID)
		case len(p.Close) > 0 && len(p.Close) != len(p.Legs):
			return nil, fmt.Errorf("%s: position %d: %d closing fills for %d legs", path, p.ID, len(p.Close), len(p.Legs))
		}
		seen[p.ID] = true
	}
	return pf.Position, nil
}

// positionsHeader starts a positions file chainwatch creates.
const positionsHeader = "# chainwatch positions: the positions page (P) and `chainwatch positions`.\n" +
	"# Each [[position]] is a strategy with its fills; a closed one keeps its closing fills.\n"

// positionsLockWait bounds the wait for another process's save.
const positionsLockWait = 10 * time.Second

// lockPositions holds the positions file for one read-modify-write: this
// process's other savers (configFileMu) and other processes (a lock file
// beside it, as the alerts' log has) wait, so no save is lost to another
// that read the file before it.
func lockPositions(path string) (unlock func(), err error) {
	if path == "" {
		return nil, errors.New("there is no config directory; pass --config")
	}
	configFileMu.Lock()
	ctx, cancel := context.WithTimeout(context.Background(), positionsLockWait)
	defer cancel()
	release, err := api.LockFile(ctx, path+".lock")
	if err != nil {
		configFileMu.Unlock()
		return nil, err
	}
	return func() { release(); configFileMu.Unlock() }, nil
}

// SavePosition writes p as a [[position]] of the file at path: it
// replaces the one of the same id, else appends it. The rest of the file
// (comments, other positions) is kept byte for byte.
func SavePosition(path string, p Position) error {
	unlock, err := lockPositions(path)
	if err != nil {
		return fmt.Errorf("cannot save position %d: %w", p.ID, err)
	}
	defer unlock()
	return savePosition(path, p)
}

// AddPosition saves p as a new position and returns it with its id, taken
// under the lock (one above the highest held): two screens or processes
// saving at once get ids of their own. When rollOf names a position not
// yet rolled, it is marked rolled into the new one in the same hold.
func AddPosition(path string, p Position, rollOf int) (Position, error) {
	unlock, err := lockPositions(path)
	if err != nil {
		return p, fmt.Errorf("cannot save the position: %w", err)
	}
	defer unlock()
	have, err := LoadPositions(path)
	if err != nil {
		return p, fmt.Errorf("cannot save the position: %w", &BadPositionsError{err})
	}
	p.ID = NextPositionID(have)
	if err := savePosition(path, p); err != nil {
		p.ID = 0
		return p, err
	}
	for _, old := range have {
		if rollOf != 0 && old.ID == rollOf && old.RolledTo == 0 {
			old.RolledTo = p.ID
			if err := savePosition(path, old); err != nil {
				return p, err
			}
		}
	}
	return p, nil
}

// BadPositionsError is a positions file that does not load: the user's
// to fix before anything is saved to it.
type BadPositionsError struct{ Err error }

func (e *BadPositionsError) Error() string {
	return "the positions file does not load, fix it first: " + e.Err.Error()
}

func (e *BadPositionsError) Unwrap() error { return e.Err }

// savePosition is SavePosition with the file held.
func savePosition(path string, p Position) error {
	fail := func(err error) error { return fmt.Errorf("cannot save position %d: %w", p.ID, err) }
	data, _, err := api.ReadRegularFile(path, MaxFileSize)
	perm := os.FileMode(0o600)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = []byte(positionsHeader)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fail(err)
		}
	case err != nil:
		return fail(err)
	default:
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm()
		}
	}
	have, err := LoadPositions(path)
	if err != nil {
		return fail(&BadPositionsError{err})
	}
	text := string(data)
	blocks := findBlocks(text, "position")
	if len(blocks) != len(have) {
		return fail(fmt.Errorf("%s: found %d [[position]] headers for %d positions; write each as a [[position]] table", path, len(blocks), len(have)))
	}
	want := append([]Position(nil), have...)
	block := renderPosition(p, newline(text))
	e := textEdit{lo: len(text), hi: len(text), insert: appendBlock(text, block)}
	replaced := false
	for i := range have {
		if have[i].ID == p.ID {
			e, want[i], replaced = textEdit{lo: blocks[i].start, hi: blocks[i].end, insert: block}, p, true
		}
	}
	if !replaced {
		want = append(want, p)
	}
	return writeChecked(path, string(data), e, perm, "the position's block", func(tmp string) error {
		got, err := LoadPositions(tmp)
		if err != nil {
			return fmt.Errorf("the edited file would not load (%s); %s is unchanged", strings.ReplaceAll(err.Error(), tmp, path), path)
		}
		if !samePositions(got, want) {
			return fmt.Errorf("the edited file would not hold the intended positions; %s is unchanged", path)
		}
		return nil
	})
}

// samePositions compares positions as the file stores them (times to
// the second, in any zone).
func samePositions(a, b []Position) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !x.Opened.Truncate(time.Second).Equal(y.Opened.Truncate(time.Second)) || !x.Closed.Truncate(time.Second).Equal(y.Closed.Truncate(time.Second)) {
			return false
		}
		x.Opened, y.Opened, x.Closed, y.Closed = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if len(x.Close) == 0 && len(y.Close) == 0 {
			x.Close, y.Close = nil, nil
		}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// renderPosition writes p as a [[position]] block.
func renderPosition(p Position, nl string) string {
	var b strings.Builder
	line := func(key, val string) { b.WriteString(key + " = " + val + nl) }
	b.WriteString("[[position]]" + nl)
	line("id", strconv.Itoa(p.ID))
	line("name", tomlString(p.Name))
	line("symbol", tomlString(p.Symbol))
	line("opened", p.Opened.Truncate(time.Second).Format(time.RFC3339))
	line("legs", renderArray(nil, p.Legs, nl, "  ", ""))
	if !p.Closed.IsZero() {
		line("closed", p.Closed.Truncate(time.Second).Format(time.RFC3339))
		fills := make([]string, len(p.Close))
		for i, f := range p.Close {
			fills[i] = strconv.FormatFloat(f, 'f', -1, 64)
			if !strings.Contains(fills[i], ".") {
				fills[i] += ".0" // a TOML float, not an integer
			}
		}
		line("close", "["+strings.Join(fills, ", ")+"]")
	}
	if p.RolledTo != 0 {
		line("rolled_to", strconv.Itoa(p.RolledTo))
	}
	return b.String()
}

// NextPositionID is one above the highest id held.
func NextPositionID(ps []Position) int {
	n := 0
	for _, p := range ps {
		n = max(n, p.ID)
	}
	return n + 1
}
