package cmd

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"chainwatch/config"
	"chainwatch/config/configtest"
	"chainwatch/model"
)

// TestWatchWatchlist: the screen gets the config file's watchlist with its
// skipped entries worded with their lines, --watchlist starts on it, and
// a save writes the file it loaded, keeping its comments.
func TestWatchWatchlist(t *testing.T) {
	env := homeEnv(t)
	body := "# mine\nwatchlist = [\n  \"SPY\",  # core\n  \"S P Y\",\n  \"qqq\",\n]\n"
	path := configtest.Write(t, t.TempDir(), body, 0o600)
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		return cfg.SaveWatchlist([]string{"QQQ", "SPY", "AAPL"})
	}}.run(t, "--config", path, "--watchlist")
	if res.err != nil {
		t.Fatal(res.err)
	}
	c := res.cfg
	if !slices.Equal(c.Watchlist, []string{"SPY", "QQQ"}) || !c.StartOnWatchlist || len(c.WatchlistSkipped) != 1 ||
		!strings.HasPrefix(c.WatchlistSkipped[0], path+":4: watchlist: symbol \"S P Y\"") {
		t.Fatalf("watchlist %v, skipped %v, start %v", c.Watchlist, c.WatchlistSkipped, c.StartOnWatchlist)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "# mine\nwatchlist = [\n  \"qqq\",\n  \"SPY\", # core\n  \"AAPL\",\n]\n" {
		t.Fatalf("saved %q %v", data, err)
	}
	// Without a config file: the default list, saved at the default path
	// on the first edit; a bare start is on the chain.
	res = watchCLI{env: env, during: func(cfg model.Config) error { return cfg.SaveWatchlist([]string{"IWM"}) }}.run(t)
	if res.err != nil || !slices.Equal(res.cfg.Watchlist, config.DefaultWatchlist) || res.cfg.StartOnWatchlist {
		t.Fatalf("%v %+v", res.err, res.cfg)
	}
	if again := (watchCLI{env: env}).run(t); again.err != nil || !slices.Equal(again.cfg.Watchlist, []string{"IWM"}) {
		t.Fatalf("next run: %v %v", again.err, again.cfg.Watchlist)
	}
}

// TestWatchWatchlistSaveFailure: a save that failed last is said after
// the screen, once; one that a later save made good is not.
func TestWatchWatchlistSaveFailure(t *testing.T) {
	env := homeEnv(t)
	good := "watchlist = [\"SPY\"]\n"
	path := configtest.Write(t, t.TempDir(), good, 0o600)
	// The file is broken by hand while the screen runs: a save refuses to
	// edit a file that does not load.
	breakFile := func() error { return os.WriteFile(path, []byte("watchlist = [\n"), 0o600) }
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		if err := breakFile(); err != nil {
			return err
		}
		if cfg.SaveWatchlist([]string{"QQQ"}) == nil {
			return errors.New("a save into a broken file succeeded")
		}
		_ = cfg.SaveWatchlist([]string{"IWM"}) // fails too: the last failure is said once
		return nil
	}}.run(t, "--config", path)
	if res.err != nil || strings.Count(res.errOut, "chainwatch: warning: cannot save the watchlist: the config file does not load") != 1 {
		t.Fatalf("%v, stderr %q", res.err, res.errOut)
	}
	if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	res = watchCLI{env: env, during: func(cfg model.Config) error {
		if err := breakFile(); err != nil {
			return err
		}
		cfg.SaveWatchlist([]string{"QQQ"})
		if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
			return err
		}
		return cfg.SaveWatchlist([]string{"IWM"})
	}}.run(t, "--config", path)
	if res.err != nil || strings.Contains(res.errOut, "warning") {
		t.Fatalf("%v, stderr %q", res.err, res.errOut)
	}
}
