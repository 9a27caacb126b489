package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"chainwatch/api"
	"chainwatch/text"
)

// The config file is the user's: hand-written, commented, perhaps holding
// the client secret. Saving a scan must therefore change nothing but that
// scan's [[scan]] block. So it is edited as text (a TOML encoder would
// rewrite the whole file and drop every comment), and the result is only
// put in place after it has been read back with Load and found to
// hold exactly the scans intended and the same settings as before.

// configFileMu serialises edits within this process: the modal may save
// and delete in quick succession, the watchlist page saves while it does,
// and each edit reads the file the last one wrote. (Two chainwatch processes saving at the same instant can
// still lose one of the saves; neither can corrupt the file.)
var configFileMu sync.Mutex

// SaveScan writes s as a [[scan]] of the config file at path: it replaces
// the scan of the same name (without regard to case), else appends one. A
// missing file is created 0600 (its directory 0700), since it may later
// hold a client secret.
func SaveScan(path string, s SavedScan, rule ScanRule) error {
	sc := tableOf(s)
	if err := sc.check(rule); err != nil {
		if sc.Name == "" {
			return fmt.Errorf("cannot save the scan: %w", err)
		}
		return fmt.Errorf("cannot save the scan %q: %w", clipName(sc.Name), err)
	}
	return editScans(path, rule, fmt.Sprintf("save the scan %q", sc.Name), func(text string, blocks []scanBlock, fc File) (textEdit, []SavedScan, error) {
		want := fc.SavedScans()
		block := renderScan(sc, newline(text))
		for i, old := range fc.Scans {
			if strings.EqualFold(old.Name, sc.Name) {
				want[i] = sc.saved()
				return textEdit{lo: blocks[i].start, hi: blocks[i].end, insert: block}, want, nil
			}
		}
		return textEdit{lo: len(text), hi: len(text), insert: appendBlock(text, block)}, append(want, sc.saved()), nil
	})
}

// DeleteScan removes the [[scan]] named name (without regard to case)
// from the config file at path, with its fields, and nothing else but
// the blank lines that separated it.
func DeleteScan(path, name string, rule ScanRule) error {
	name = strings.TrimSpace(name)
	return editScans(path, rule, fmt.Sprintf("delete the scan %q", name), func(body string, blocks []scanBlock, fc File) (textEdit, []SavedScan, error) {
		want := fc.SavedScans()
		for i, old := range fc.Scans {
			if strings.EqualFold(old.Name, name) {
				return deleteBlock(body, blocks[i]), append(want[:i:i], want[i+1:]...), nil
			}
		}
		return textEdit{}, nil, fmt.Errorf("%s has no saved scan named %s", path, text.Quote(name))
	})
}

// deleteBlock removes b and one of the runs of blank lines around it, so
// the tables on either side keep the spacing they had. Comments, even
// those right above or below the block, stay: they are the user's.
func deleteBlock(text string, b scanBlock) textEdit {
	e := textEdit{lo: b.start, hi: b.end}
	switch after := blankLinesAfter(text, b.end); {
	case after == len(text):
		// The last thing in the file: the blank lines above it go too.
		e.lo, e.hi = blankLinesBefore(text, b.start), after
	case b.start == 0 || blankLinesBefore(text, b.start) < b.start:
		e.hi = after
	}
	return e
}

// textEdit replaces text[lo:hi], whole lines, with insert.
type textEdit struct {
	lo, hi int
	insert string
}

func (e textEdit) apply(text string) string { return text[:e.lo] + e.insert + text[e.hi:] }

// scanEdit says how to change the file's text, and which scans it must
// then hold. blocks[i] is where fc.Scans[i] is written.
type scanEdit func(text string, blocks []scanBlock, fc File) (textEdit, []SavedScan, error)

// editScans reads the file (none is an empty one), applies edit, and puts
// the result in place atomically if, read back, it holds the scans edit
// promised and every other setting unchanged. Otherwise the file is left
// as it was and the error says why.
func editScans(path string, rule ScanRule, what string, edit scanEdit) error {
	return editFile(path, rule, what, "the scan's block", func(text string, fc File) (textEdit, func(File) error, error) {
		blocks := findScanBlocks(text)
		if len(blocks) != len(fc.Scans) {
			return textEdit{}, nil, fmt.Errorf("%s: found %d [[scan]] headers for %d scans; write each scan as a [[scan]] table, not inline", path, len(blocks), len(fc.Scans))
		}
		e, want, err := edit(text, blocks, fc)
		if err != nil {
			return textEdit{}, nil, err
		}
		if !onlyBlocks(text, e, blocks) {
			return textEdit{}, nil, fmt.Errorf("the edit would remove text outside the scan's [[scan]] block; %s is unchanged", path)
		}
		verify := func(after File) error {
			if got := after.SavedScans(); !sameScans(got, want) {
				return fmt.Errorf("the edited file would not hold the intended scans; %s is unchanged", path)
			}
			before := fc
			after.Scans, before.Scans = nil, nil
			return sameSettings(path, after, before)
		}
		return e, verify, nil
	})
}

// fileEdit says how to change the file's text (fc is the file as it
// loads now), and how to check the file read back after the change.
type fileEdit func(text string, fc File) (e textEdit, verify func(after File) error, err error)

// editFile reads the config file (none is an empty one), applies edit to
// its text, and puts the result in place atomically if it changes no byte
// outside the edit and, read back, passes edit's check. Otherwise the file
// is left as it was and the error says why. region names what the edit
// may change, for that message.
func editFile(path string, rule ScanRule, what, region string, edit fileEdit) error {
	configFileMu.Lock()
	defer configFileMu.Unlock()
	fail := func(err error) error { return fmt.Errorf("cannot %s: %w", what, err) }
	if path == "" {
		return fail(errors.New("there is no config file (no user configuration directory); pass --config"))
	}
	// A symlinked config (a dotfiles repository) is edited where it lives,
	// not replaced by a regular file.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	perm := os.FileMode(0o600)
	data, _, err := api.ReadRegularFile(path, MaxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fail(err)
		}
	case err != nil:
		return fail(err)
	default:
		fi, err := os.Stat(path)
		if err != nil {
			return fail(err)
		}
		perm = fi.Mode().Perm()
	}
	var fc File
	if len(data) > 0 {
		if fc, _, err = Load(path, true, rule); err != nil {
			return fail(fmt.Errorf("the config file does not load, fix it first: %w", err))
		}
	}
	text := string(data)
	e, verify, err := edit(text, fc)
	if err != nil {
		return fail(err)
	}
	if err := writeVerified(path, rule, text, e, perm, region, verify); err != nil {
		return fail(err)
	}
	return nil
}

// sameSettings reports a change between two loads of the file beyond
// what the edit was for (which the caller has cleared in both).
func sameSettings(path string, after, before File) error {
	after.Service.Path, before.Service.Path = "", ""
	// A block written above the alerts moves their lines, nothing else.
	after.AlertLines, before.AlertLines = nil, nil
	after.AlertKeyLines, before.AlertKeyLines = nil, nil
	if !reflect.DeepEqual(after, before) {
		return fmt.Errorf("the edit would change other settings; %s is unchanged", path)
	}
	return nil
}

// onlyBlocks tells whether every line e removes is blank or part of a
// [[scan]] block: a comment or setting outside them is never dropped.
func onlyBlocks(text string, e textEdit, blocks []scanBlock) bool {
	if e.lo < 0 || e.hi < e.lo || e.hi > len(text) {
		return false
	}
	for _, l := range tomlLines(text) {
		if l.next <= e.lo || l.at >= e.hi || strings.TrimSpace(l.text) == "" {
			continue
		}
		inside := false
		for _, b := range blocks {
			if b.start <= l.at && l.next <= b.end {
				inside = true
				break
			}
		}
		if !inside {
			return false
		}
	}
	return true
}

// writeVerified writes old with e applied to a temporary file beside path,
// reads it back, and renames it over path only if it holds old's bytes
// outside the edited lines unchanged and verify accepts the file it loads
// as.
func writeVerified(path string, rule ScanRule, old string, e textEdit, perm os.FileMode, region string, verify func(File) error) error {
	return writeChecked(path, old, e, perm, region, func(tmpPath string) error {
		after, _, err := Load(tmpPath, true, rule)
		if err != nil {
			return fmt.Errorf("the edited file would not load (%s); %s is unchanged",
				strings.ReplaceAll(err.Error(), tmpPath, path), path)
		}
		return verify(after)
	})
}

// writeChecked is writeVerified for any file: check reads the temporary
// file back and says whether it holds what was intended.
func writeChecked(path, old string, e textEdit, perm os.FileMode, region string, check func(tmpPath string) error) (err error) {
	text := e.apply(old)
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmpPath := tmp.Name()
	defer func() {
		if err != nil {
			os.Remove(tmpPath)
		}
	}()
	// 0600 from the start (CreateTemp's default), then the file's own mode.
	_, werr := tmp.WriteString(text)
	if werr == nil {
		werr = tmp.Chmod(perm)
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	got, err := os.ReadFile(tmpPath)
	if err != nil {
		return err
	}
	if keep := len(old) - (e.hi - e.lo); len(got) != keep+len(e.insert) ||
		string(got[:e.lo]) != old[:e.lo] || string(got[e.lo+len(e.insert):]) != old[e.hi:] {
		return fmt.Errorf("the edited file would change text outside %s; %s is unchanged", region, path)
	}
	if err := check(tmpPath); err != nil {
		return err
	}
	if err := os.Rename(tmpPath, path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// syncDir makes the rename durable where the platform allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// sameScans compares scans as the file stores them: an omitted sort is
// none and an omitted include flag is true, whichever way they are said.
func sameScans(a, b []SavedScan) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(tableOf(a[i]), tableOf(b[i])) {
			return false
		}
	}
	return true
}
