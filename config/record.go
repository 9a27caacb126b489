package config

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/dustin/go-humanize"
)

// Record is the [record] table: the flight recorder.
type Record struct {
	// Enabled false turns recording off, as --no-record does; nil: on.
	Enabled *bool `toml:"enabled"`
	// MaxSize caps the recording ("2GB", "500MB"); past it the oldest
	// days are removed first. "": DefaultRecordMaxBytes.
	MaxSize string `toml:"max_size"`
}

// DefaultRecordMaxBytes is the recording's cap when max_size is not set.
const DefaultRecordMaxBytes = 2_000_000_000

// RecordDirName is the recording's folder in UserDataDir.
const RecordDirName = "record"

// On reports whether the recorder runs.
func (r Record) On() bool { return r.Enabled == nil || *r.Enabled }

// MaxBytes is max_size in bytes (checked by Load).
func (r Record) MaxBytes() int64 {
	if r.MaxSize == "" {
		return DefaultRecordMaxBytes
	}
	n, err := humanize.ParseBytes(r.MaxSize)
	if err != nil || n == 0 {
		return DefaultRecordMaxBytes
	}
	return int64(n)
}

func (r Record) check() error {
	if r.MaxSize == "" {
		return nil
	}
	n, err := humanize.ParseBytes(r.MaxSize)
	if err != nil || n < 1<<20 {
		return fmt.Errorf("[record] max_size: %q: want a size of at least 1MB, e.g. \"2GB\"", r.MaxSize)
	}
	return nil
}

// RecordDir is where the flight recorder keeps its days:
// CHAINWATCH_RECORD when set (an absolute path), else RecordDirName in
// UserDataDir, beside the store of past days.
func RecordDir(getenv func(string) string) (string, error) {
	if p := getenv("CHAINWATCH_RECORD"); p != "" {
		if !filepath.IsAbs(p) {
			return "", errors.New("the path in $CHAINWATCH_RECORD is relative")
		}
		return p, nil
	}
	dir, err := UserDataDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, RecordDirName), nil
}
