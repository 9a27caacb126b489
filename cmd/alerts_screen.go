package cmd

import (
	"fmt"
	"path/filepath"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model"
)

// screenAlerts gives the watch screen its data monitor with the config
// file's alert rules evaluated on it (the rules checked first: a bad one
// stops the screen before it starts, with its file and line), the log in
// the state directory, how to notify the desktop, and how to save a rule
// made on the screen. The returned func stops both after the screen.
func screenAlerts(cfg *model.Config, o *WatchOptions, set watchSettings, embedded bool, warn *warnings) (func(), error) {
	syms := alert.Symbols{}
	if embedded {
		syms = sandboxSymbols()
	}
	rules, err := alert.FromFile(set.file, set.scans, api.Today(o.Now()), syms)
	if err != nil {
		return nil, badInput(err)
	}
	as := alert.SettingsOf(set.file)
	src := feed.Source{Client: cfg.Client, Now: o.Now}
	mon := feed.NewMonitor(guardMonitor(feed.MonitorOptions{Fetcher: src, Clock: feed.RealClock{NowFunc: o.Now}, Budget: cfg.Budget}, o.Panics))
	path := ""
	if dir, err := config.UserStateDir(o.Getenv); err == nil {
		path = filepath.Join(dir, config.AlertLogFile)
	}
	log, err := alert.OpenLog(path, 0)
	if err != nil {
		warn.add(fmt.Errorf("the alerts' log %s cannot be read (%w); the events were kept for the session only", path, err))
		log, _ = alert.OpenLog("", 0)
	}
	eng, err := alert.New(alert.Options{Monitor: mon, Fetcher: src, RunScan: scanRunner(cfg.Client, set.mode, o.Now),
		Scans: set.scans, Mode: set.mode, Every: as.Every, Log: log, Exec: as.Exec, ExecTimeout: as.ExecTimeout, Now: o.Now}, rules)
	if err != nil {
		mon.Close()
		return nil, badInput(err)
	}
	eng.Listen() // the alerts page starts its fetches once the screen's are wanted
	cfg.Monitor, cfg.Alerts = mon, eng
	cfg.Desktop, cfg.NoBell = alert.DetectDesktop(o.Getenv, as.Desktop), !as.Bell
	if set.configPath != "" {
		cfg.SaveAlert = func(old string, r alert.Rule) error {
			return config.SaveAlert(set.configPath, old, r.Table(), alert.NameOf)
		}
		cfg.DeleteAlert = func(name string) error { return config.DeleteAlert(set.configPath, name, alert.NameOf) }
	}
	return func() { eng.Close(); mon.Close() }, nil
}
