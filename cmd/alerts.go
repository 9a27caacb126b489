package cmd

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
)

// AlertsOptions are `chainwatch alerts`' inputs.
type AlertsOptions struct {
	headless

	Watch         bool // run the rules headless, printing NDJSON events
	Log           bool // print the fired-event log
	CheckTerminal bool
	Exec          string
	ExecTimeout   time.Duration
	Every         time.Duration
	Since         string // with --watch: report the trades from this time today (HH:MM, Eastern) instead of from the start
	changed       func(string) bool
}

// NewCmdAlerts lists the config file's alert rules, says what they cost,
// prints the fired-event log, or runs the rules headless (--watch).
func NewCmdAlerts(deps Deps, runF func(*AlertsOptions) error) *cobra.Command {
	o := &AlertsOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "alerts",
		Short: "List, cost, log or run the alert rules of the config file",
		Long: `alerts works with the config file's [[alert]] rules (docs/alerts.md).

Without flags it lists the rules, each with what it costs an hour in points when
nothing on screen fetches its data. --cost says what the rules' own fetches
spend, and nothing is sent. --log prints the events fired so far (the log in the
state directory, which the watch screen writes too). --watch runs the rules
without a screen: each event is printed once, as one JSON object a line
(NDJSON), for a pipe; the rules' data is fetched every --every within the
config file's [budget], paused while the market is closed; Ctrl-C ends it with
status 0. It reports what happens from its start: the day's earlier prints are
not blocks or sweeps fired now (--since HH:MM asks for them from that time). --exec runs a command for every event, with the event as JSON on its
stdin, without a shell, killed at --exec-timeout. --check-terminal says whether
this terminal shows desktop notifications, and sends one.`,
		Example: `  chainwatch alerts                      the rules and their cost
  chainwatch alerts --cost
  chainwatch alerts --watch | jq -r '.text'
  chainwatch alerts --watch --exec 'notify-send chainwatch' --sandbox-clock 2026-11-24T10:00:00-05:00 --sandbox-speed 20
  chainwatch alerts --log --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.bind(c)
			o.changed = c.Flags().Changed
			if runF != nil {
				return runF(o)
			}
			return alertsRun(o)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&o.Watch, "watch", false, "run the rules without a screen, printing each event once as a JSON line (NDJSON) until Ctrl-C")
	fl.BoolVar(&o.Log, "log", false, "print the events fired so far (the log in the state directory)")
	fl.BoolVar(&o.CheckTerminal, "check-terminal", false, "say whether this terminal shows desktop notifications, and send one")
	fl.StringVar(&o.Exec, "exec", "", "with --watch: run this command for every event, the event as JSON on stdin (no shell; quotes group words)")
	fl.DurationVar(&o.ExecTimeout, "exec-timeout", config.AlertExecTimeout, "kill a command of --exec (or a rule's exec) after this long")
	fl.StringVar(&o.Since, "since", "", "with --watch: report the day's prints from HH:MM (Eastern) on, not only from the start")
	fl.DurationVar(&o.Every, "every", config.AlertEvery, "how often the rules' own data is fetched (the config file's [alerts] every); the budget may stretch it")
	addExportFlags(cmd, &o.Export)
	fl.BoolVar(&o.Cost, "cost", false, "print what the rules' own fetches would spend in points, and spend nothing")
	fl.StringVar(&o.Mode, "mode", "", "data path: live or delayed (default the config file's mode, else live)")
	fl.StringVar(&o.ConfigPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	addServiceFlags(cmd, &o.Service)
	fl.BoolVar(&o.NoRecord, "no-record", false, "with --watch: record nothing of this run (the flight recorder; `chainwatch record list`)")
	addClockFlags(cmd, &o.SandboxClock, &o.SandboxSpeed, "sandbox-clock", "sandbox-speed")
	cmd.MarkFlagsMutuallyExclusive("watch", "log", "cost", "check-terminal")
	cmd.AddCommand(newCmdAlertsTest(deps))
	return cmd
}

// alertsSetup is what every mode of the command reads first: the config
// file, its rules (checked), the [alerts] settings under the flags.
type alertsSetup struct {
	fc    config.File
	mode  api.Mode
	rules []alert.Rule
	set   alert.Settings
	scans []scan.Scan
	log   string        // the log's path; "" without a state directory
	since api.TimeOfDay // --since; 0: from the start
}

func alertsRun(o *AlertsOptions) error {
	if o.CheckTerminal {
		return o.checkTerminal()
	}
	s, err := o.setupAlerts()
	if err != nil {
		return err
	}
	switch {
	case o.Log:
		return o.printLog(s)
	case o.Cost:
		return o.printCost(s)
	case o.Watch:
		return o.watchAlerts(s)
	}
	return o.printRules(s)
}

// setupAlerts reads and checks everything before anything is spent.
func (o *AlertsOptions) setupAlerts() (alertsSetup, error) {
	var s alertsSetup
	var err error
	if s.fc, s.mode, err = o.setup(); err != nil {
		return s, err
	}
	s.scans = scan.FromSavedAll(s.fc.SavedScans())
	if s.rules, err = alert.FromFile(s.fc, s.scans, api.Today(o.Now()), alert.Symbols{}); err != nil {
		return s, badInput(err)
	}
	s.set = alert.SettingsOf(s.fc)
	if o.changed("every") {
		if o.Every < time.Second {
			return s, badInput(fmt.Errorf("--every %s: want at least 1s", o.Every))
		}
		s.set.Every = o.Every
	}
	if o.changed("exec-timeout") {
		if o.ExecTimeout < time.Millisecond || o.ExecTimeout > config.MaxAlertExecTimeout {
			return s, badInput(fmt.Errorf("--exec-timeout %s: want a duration from 1ms to %s", o.ExecTimeout, config.MaxAlertExecTimeout))
		}
		s.set.ExecTimeout = o.ExecTimeout
	}
	if o.changed("since") {
		if !o.Watch {
			return s, badInput(fmt.Errorf("--since runs with --watch"))
		}
		if s.since, err = config.ParseClock(o.Since); err != nil {
			return s, badInput(fmt.Errorf("--since %w", err))
		}
	}
	if o.changed("exec") {
		if !o.Watch {
			return s, badInput(fmt.Errorf("--exec runs with --watch"))
		}
		if s.set.Exec, err = alert.SplitCommand(o.Exec); err != nil {
			return s, badInput(fmt.Errorf("--exec %w", err))
		}
	}
	if dir, err := config.UserStateDir(o.Getenv); err == nil {
		s.log = filepath.Join(dir, config.AlertLogFile)
	}
	return s, o.Export.format().Check(nil)
}

// engineOf is an engine of s's rules on mon, with the log (in memory when
// it cannot be read, which is said).
func (o *AlertsOptions) engineOf(s alertsSetup, mon *feed.Monitor, src feed.Fetcher, client *api.Client, since time.Time) (*alert.Engine, error) {
	log, err := alert.OpenLog(s.log, 0)
	if err != nil {
		fmt.Fprintf(o.ErrOut, "chainwatch: warning: the alerts' log %s cannot be read (%v); events are kept for this run only\n", s.log, err)
		log, _ = alert.OpenLog("", 0)
	}
	opts := alert.Options{Monitor: mon, Fetcher: src, Scans: s.scans, Mode: s.mode, Every: s.set.Every, Log: log,
		Exec: s.set.Exec, ExecTimeout: s.set.ExecTimeout, Now: o.Now, Since: since}
	if client != nil {
		opts.RunScan = scanRunner(client, s.mode, o.Now)
	}
	return alert.New(opts, s.rules)
}

// checkTerminal says whether this terminal shows desktop notifications,
// and sends one to it.
func (o *AlertsOptions) checkTerminal() error {
	fc, _, err := o.config()
	if err != nil {
		return err
	}
	d := alert.DetectDesktop(o.Getenv, alert.SettingsOf(fc).Desktop)
	fmt.Fprintln(o.Out, d.Describe())
	if seq := d.Sequence("chainwatch", "a test notification from chainwatch alerts --check-terminal"); seq != "" && isTerminal(o.Out) {
		fmt.Fprint(o.Out, seq)
		fmt.Fprintln(o.Out, "sent a test notification: it shows if the terminal (and tmux) pass it on")
	}
	return nil
}
