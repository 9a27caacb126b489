package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"chainwatch/model"
)

// The config file is the user's: hand-written, commented, perhaps holding
// the client secret. Saving a scan must therefore change nothing but that
// scan's [[scan]] block. So it is edited as text (a TOML encoder would
// rewrite the whole file and drop every comment), and the result is only
// put in place after it has been read back with loadConfig and found to
// hold exactly the scans intended and the same settings as before.

// scansFileMu serialises saves within this process: the modal may save
// and delete in quick succession, and each edit reads the file the last
// one wrote. (Two chainwatch processes saving at the same instant can
// still lose one of the saves; neither can corrupt the file.)
var scansFileMu sync.Mutex

// saveScan writes s as a [[scan]] of the config file at path: it replaces
// the scan of the same name (without regard to case), else appends one. A
// missing file is created 0600 (its directory 0700), since it may later
// hold a client secret.
func saveScan(path string, s model.Scan) error {
	sc := scanToConfig(s)
	if err := sc.check(); err != nil {
		if sc.Name == "" {
			return fmt.Errorf("cannot save the scan: %w", err)
		}
		return fmt.Errorf("cannot save the scan %q: %w", clipName(sc.Name), err)
	}
	return editScans(path, fmt.Sprintf("save the scan %q", sc.Name), func(text string, blocks []scanBlock, fc fileConfig) (string, []model.Scan, error) {
		want := fc.savedScans()
		block := renderScan(sc, newline(text))
		for i, old := range fc.Scans {
			if strings.EqualFold(old.Name, sc.Name) {
				b := blocks[i]
				want[i] = sc.scan()
				return text[:b.start] + block + text[b.contentEnd:], want, nil
			}
		}
		return appendBlock(text, block), append(want, sc.scan()), nil
	})
}

// deleteScan removes the [[scan]] named name (without regard to case)
// from the config file at path, with its fields, and nothing else.
func deleteScan(path, name string) error {
	name = strings.TrimSpace(name)
	return editScans(path, fmt.Sprintf("delete the scan %q", name), func(text string, blocks []scanBlock, fc fileConfig) (string, []model.Scan, error) {
		want := fc.savedScans()
		for i, old := range fc.Scans {
			if strings.EqualFold(old.Name, name) {
				b := blocks[i]
				return text[:b.start] + text[b.end:], append(want[:i:i], want[i+1:]...), nil
			}
		}
		return "", nil, fmt.Errorf("%s has no saved scan named %q", path, name)
	})
}

// scanEdit turns the file's text into the new text and the scans it must
// then hold. blocks[i] is where fc.Scans[i] is written.
type scanEdit func(text string, blocks []scanBlock, fc fileConfig) (string, []model.Scan, error)

// editScans reads the file (none is an empty one), applies edit, and puts
// the result in place atomically if, read back, it holds the scans edit
// promised and every other setting unchanged. Otherwise the file is left
// as it was and the error says why.
func editScans(path, what string, edit scanEdit) error {
	scansFileMu.Lock()
	defer scansFileMu.Unlock()
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
	data, err := os.ReadFile(path)
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
	var fc fileConfig
	if len(data) > 0 {
		if fc, _, err = loadConfig(path, true); err != nil {
			return fail(fmt.Errorf("the config file does not load, fix it first: %w", err))
		}
	}
	text := string(data)
	blocks := findScanBlocks(text)
	if len(blocks) != len(fc.Scans) {
		return fail(fmt.Errorf("%s: found %d [[scan]] headers for %d scans; write each scan as a [[scan]] table, not inline", path, len(blocks), len(fc.Scans)))
	}
	newText, want, err := edit(text, blocks, fc)
	if err != nil {
		return fail(err)
	}
	if err := writeVerified(path, newText, perm, fc, want); err != nil {
		return fail(err)
	}
	return nil
}

// writeVerified writes text to a temporary file beside path, reads it back
// as a config file, and renames it over path only if it holds exactly want
// as scans and otherwise the settings of before.
func writeVerified(path, text string, perm os.FileMode, before fileConfig, want []model.Scan) (err error) {
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
	after, _, err := loadConfig(tmpPath, true)
	if err != nil {
		return fmt.Errorf("the edited file would not load (%s); %s is unchanged",
			strings.ReplaceAll(err.Error(), tmpPath, path), path)
	}
	if got := after.savedScans(); !sameScans(got, want) {
		return fmt.Errorf("the edited file would not hold the intended scans; %s is unchanged", path)
	}
	after.Scans, before.Scans = nil, nil
	after.Service.path, before.Service.path = "", ""
	if !reflect.DeepEqual(after, before) {
		return fmt.Errorf("the edit would change other settings; %s is unchanged", path)
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
func sameScans(a, b []model.Scan) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(scanToConfig(a[i]), scanToConfig(b[i])) {
			return false
		}
	}
	return true
}
