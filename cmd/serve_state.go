package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/scan"
	"chainwatch/serve"
	"chainwatch/text"
)

// Each key's own state under serve: a directory of the serve state
// directory named by the key (its comment's name), which holds what the
// screen keeps for one user elsewhere: recent symbols, a config file of
// its own, positions beside it, and the alert log.

// keyConfig is the key's config file in its state directory.
const keyConfig = "config.toml"

// keyOwner is the file in a key's state directory that names the key it
// belongs to (its fingerprint): a name is a comment, which another key
// may carry once the first is gone, and must not inherit its positions.
const keyOwner = "key"

// admit lets a session of u open when its state directory is its key's:
// one that records no key (made now, or kept from before) is u's from now
// on; one that records another key refuses it, naming both.
func (d *desk) admit(u serve.User) error {
	dir := d.state.In(u.Name).Dir()
	if dir == "" {
		return nil // no state is kept, so none is shared
	}
	path := filepath.Join(dir, keyOwner)
	data, _, err := api.ReadRegularFile(path, 4<<10)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return api.WriteFileAtomic(path, []byte(u.Fingerprint+"\n"))
	case err != nil:
		return err
	}
	if owner := strings.TrimSpace(string(data)); owner != u.Fingerprint {
		return fmt.Errorf("the state in %s belongs to the key %s, not to %s (named %s by its comment): if it is the same trader's new key, write its fingerprint into %s; else give the new key a name of its own",
			dir, text.OneLine(owner, 80), u.Fingerprint, u.Name, path)
	}
	return nil
}

// keyAlerts is one key's alert engine, shared by the key's sessions (two
// terminals of one trader show the same rules, log and events, and fire
// each event once), closed with the last of them.
type keyAlerts struct {
	eng      *alert.Engine
	sessions int
}

// keyState gives cfg the state of the key name, in its directory:
// recent symbols; its config.toml for the watchlist, saved scans (the
// server's are the starting point) and [[alert]] rules; positions.toml
// beside it, as a config file's; its alert rules on the desk's pool.
// release is to be called when the session ends.
func (d *desk) keyState(name string, cfg *model.Config) (release func()) {
	st := d.state.In(name)
	cfg.Recent, _ = st.Recent()
	cfg.SaveRecent = st.SaveRecent
	dir := st.Dir()
	if dir == "" {
		cfg.AlertsOff = "alerts are off: the server has no state directory to keep this key's rules in"
		return func() {}
	}
	path := filepath.Join(dir, keyConfig)
	fc, _, err := config.Load(path, false, scan.CheckSaved)
	if err == nil {
		if wl := fc.WatchlistSymbols(); wl != nil {
			cfg.Watchlist, cfg.WatchlistSkipped = wl, fc.WatchlistWarnings()
		}
		cfg.Scans = append(cfg.Scans[:len(cfg.Scans):len(cfg.Scans)], scan.FromSavedAll(fc.SavedScans())...)
	} else {
		// The server's watchlist stands in; the watchlist page says why
		// (the alerts page does too, below), and saving refuses to write
		// over a file it cannot read, so nothing in it is lost.
		cfg.WatchlistSkipped = append(slices.Clip(cfg.WatchlistSkipped),
			fmt.Sprintf("your config file is not used until it is corrected: %v", err))
		d.log.Warn("a key's config file does not load", "key", name, "error", err)
	}
	cfg.SaveWatchlist = func(list []string) error { return config.SaveWatchlist(path, list, scan.CheckSaved) }
	cfg.SaveScan = func(s scan.Scan) error { return config.SaveScan(path, s.Saved(), scan.CheckSaved) }
	cfg.DeleteScan = func(name string) error { return config.DeleteScan(path, name, scan.CheckSaved) }
	cfg.PositionsPath = config.PositionsPath(path)
	return d.keyAlerts(name, path, fc, err, cfg)
}

// keyAlerts gives cfg the key's alert engine, made by its first session
// from its config file (loaded as fc, or failed with loadErr): rules made
// on the screen are written there. A file whose rules do not hold leaves
// the session without alerts, saying why with the file and line, and the
// server and the other sessions as they were.
func (d *desk) keyAlerts(name, path string, fc config.File, loadErr error, cfg *model.Config) (release func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ka := d.keys[name]
	if ka == nil {
		eng, err := d.keyEngine(path, fc, loadErr, cfg.Scans)
		if err != nil {
			cfg.AlertsOff = "alerts are off in this session: " + err.Error() + "; correct the file and log in again"
			d.log.Warn("a key's alerts are off", "key", name, "error", err)
			return func() {}
		}
		ka = &keyAlerts{eng: eng}
		d.keys[name] = ka
	}
	ka.sessions++
	cfg.Alerts = ka.eng
	cfg.SaveAlert = func(old string, r alert.Rule) error { return config.SaveAlert(path, old, r.Table(), alert.NameOf) }
	cfg.DeleteAlert = func(name string) error { return config.DeleteAlert(path, name, alert.NameOf) }
	cfg.NoBell = !alert.SettingsOf(fc).Bell
	var once sync.Once
	return func() {
		once.Do(func() {
			d.mu.Lock()
			ka.sessions--
			last := ka.sessions == 0
			if last {
				delete(d.keys, name)
			}
			d.mu.Unlock()
			if last {
				ka.eng.Close()
			}
		})
	}
}

// keyEngine is an engine of the rules of the key's config file on the
// desk's pool (listening; its screen's alerts page starts its fetches),
// with its log beside the file and the file's [alerts] exec. The
// interval of the rules' own fetches is the desk's: they are one job.
func (d *desk) keyEngine(path string, fc config.File, loadErr error, scans []scan.Scan) (*alert.Engine, error) {
	if loadErr != nil {
		return nil, loadErr
	}
	syms := alert.Symbols{}
	if d.base.Source == sourceSandbox {
		syms = sandboxSymbols()
	}
	rules, err := alert.FromFile(fc, scans, api.Today(d.base.Now()), syms)
	if err != nil {
		return nil, err
	}
	as := alert.SettingsOf(fc)
	logPath := filepath.Join(filepath.Dir(path), config.AlertLogFile)
	log, err := alert.OpenLog(logPath, 0)
	if err != nil {
		d.log.Warn("a key's alert log cannot be read: its events are kept for the session only", "path", logPath, "error", err)
		log, _ = alert.OpenLog("", 0)
	}
	eng, err := alert.New(alert.Options{Pool: d.pool, Scans: scans, Log: log, Exec: as.Exec, ExecTimeout: as.ExecTimeout}, rules)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	eng.Listen()
	return eng, nil
}

// deskPool is the pool of a desk without rules of the server's own: the
// keys' rules fetch as one job of mon, every config.AlertEvery.
func deskPool(cfg model.Config, mon *feed.Monitor) *alert.Pool {
	mode := cmp.Or(cfg.Mode, api.Live)
	return alert.NewPool(alert.PoolOptions{Monitor: mon, Fetcher: feed.Source{Client: cfg.Client, Now: cfg.Now},
		RunScan: scanRunner(cfg.Client, mode, cfg.Now), Mode: mode, Now: cfg.Now})
}

// logDeskAlerts writes what the server's own rules fire and say to the
// server's log until ctx ends: they are the desk's, on no trader's screen.
func (d *desk) logDeskAlerts(ctx context.Context) {
	sub := d.mon.Subscribe()
	defer sub.Close()
	sub.Set(feed.Attention{Idle: true}) // it shows nothing: the feeds need not hurry for it
	for {
		msg, ok := sub.Next(ctx)
		if !ok {
			return
		}
		switch m := msg.(type) {
		case alert.FiredMsg:
			for _, ev := range m.Events {
				if m.From == d.server {
					d.log.Info("desk alert fired", "rule", ev.Rule, "event", ev.Text)
				}
			}
		case alert.NoticeMsg:
			if m.From == d.server {
				d.log.Info("desk alert", "notice", m.Text)
			}
		}
	}
}
