package config

import (
	"errors"
	"path/filepath"
)

// HistoryFile is the name of the store of past days' answers.
const HistoryFile = "history.db"

// UserDataDir is $XDG_DATA_HOME/chainwatch, by default
// ~/.local/share/chainwatch (%LocalAppData%\chainwatch on Windows). The
// store of past days lives here, not in the state directory: it holds
// market data bought with points, worth backing up and moving to another
// machine, which the XDG spec puts in the data directory; the state
// directory is for what only this machine's runs need (the recent list).
func UserDataDir(getenv func(string) string) (string, error) {
	return xdgDir(getenv, "XDG_DATA_HOME", ".local", "share")
}

// UserCacheDir is $XDG_CACHE_HOME/chainwatch, by default
// ~/.cache/chainwatch (%LocalAppData%\chainwatch on Windows): what is
// kept only to save work, which may be deleted at any time (the embedded
// sandbox's open interest of past days).
func UserCacheDir(getenv func(string) string) (string, error) {
	return xdgDir(getenv, "XDG_CACHE_HOME", ".cache")
}

// HistoryPath is where the store of past days is: CHAINWATCH_HISTORY when
// set (an absolute path), else HistoryFile in UserDataDir.
func HistoryPath(getenv func(string) string) (string, error) {
	if p := getenv("CHAINWATCH_HISTORY"); p != "" {
		if !filepath.IsAbs(p) {
			return "", errors.New("the path in $CHAINWATCH_HISTORY is relative")
		}
		return p, nil
	}
	dir, err := UserDataDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, HistoryFile), nil
}

// EarningsLookback is how many calendar days back the events are asked
// for: two years and a month hold the last eight quarterly reports.
const EarningsLookback = 760
