package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/crash"
	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/sandbox/market"
	"chainwatch/scan"
)

// Sources, as the header's badge and the first-run banner name them.
const (
	sourceSandbox    = "SANDBOX"
	sourceProduction = "PRODUCTION"
	sourceLocal      = "LOCAL"
)

// watchFlags are the root command's flags: the screen's settings and the
// service's. Each beats the config file only when given (cobra's Changed),
// so a flag left at its default never hides a value the file sets.
type watchFlags struct {
	configPath string
	mode, date string
	theme      string
	perDay     int
	share      float64
	blockSize  int64
	tapeSize   int
	colorBlind bool
	noColor    bool
	noFlash    bool
	watchlist  bool
	noHistory  bool // --no-history
	noRecord   bool // --no-record
	svc        serviceFlags
	// The embedded sandbox's clock: --sandbox-clock, --sandbox-speed.
	sandboxClock string
	sandboxSpeed float64
}

// WatchOptions are the root command's inputs: its flags, which of them
// were given, the symbol argument, and the process's stderr, environment,
// clock and screen.
type WatchOptions struct {
	ErrOut   io.Writer
	Getenv   func(string) string
	Now      func() time.Time
	RunWatch func(model.Config) error // nil: no screen in this build
	// Panics recovers the panics of the screen's monitor's goroutines
	// (root_crash.go); nil: they are not recovered.
	Panics *crash.Relay
	// Log, when set (serve's), hears what the process's services say that
	// is for an administrator, such as the history store's saving troubles.
	Log *slog.Logger

	Args  []string
	Flags watchFlags
	// replay runs the screen on the recording (`chainwatch replay`); nil:
	// on the service.
	replay *replaySpec
	// open, when set, opens the screen's connection instead of the
	// service's session (serve's bus host: answers from the bus); Recorder
	// is a second recorder of every answer besides the flight recorder
	// (serve's bus source). serve_bus.go sets them.
	open     func(o *WatchOptions, set watchSettings) (*watchConn, error)
	Recorder api.Recorder
	Changed  func(flag string) bool
	// CommandPath and SuggestFor word an unknown symbol as cobra words an
	// unknown command (a mistyped `chainwatch stauts` is an argument).
	CommandPath string
	SuggestFor  func(arg string) []string
}

// addWatchFlags defines the root's flags. The service flags have the names
// and meaning of login's and status's; they are the root's own, not
// persistent, because a persistent flag would also be accepted (and
// silently ignored) by sandbox, logout and version, while login and status
// keep their own definitions either way.
func addWatchFlags(cmd *cobra.Command, f *watchFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.mode, "mode", "live", "data path: live or delayed (15 minutes behind)")
	fl.StringVar(&f.date, "date", "", "a past day YYYY-MM-DD to see its end-of-day chain (historical); today is live")
	fl.StringVar(&f.configPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	fl.IntVar(&f.perDay, "budget-per-day", 0, "points per trading day the screen may spend; > 0 overrides --budget-share")
	fl.Float64Var(&f.share, "budget-share", config.DefaultBudgetShare, "share (0,1] of the month's points left, spread over the trading time left in the month")
	fl.Int64Var(&f.blockSize, "block-size", config.DefaultBlockSize, "trades of at least this many contracts are highlighted as blocks")
	fl.IntVar(&f.tapeSize, "tape-size", config.DefaultTapeSize, fmt.Sprintf("trades the tape keeps (%d to %d)", config.MinTapeSize, config.MaxTapeSize))
	fl.StringVar(&f.theme, "theme", config.DefaultTheme, "colours: auto (from the terminal's background), dark or light")
	fl.BoolVar(&f.colorBlind, "colorblind", false, "a colour-blind-safe palette")
	fl.BoolVar(&f.noColor, "no-color", false, "no colours at all (also when NO_COLOR is set)")
	fl.BoolVar(&f.noFlash, "no-flash", false, "changed quotes are not highlighted (a refresh then writes about half the bytes, for a slow link)")
	fl.BoolVar(&f.watchlist, "watchlist", false, "start on the watchlist page (the config file's watchlist; W switches)")
	fl.BoolVar(&f.noHistory, "no-history", false, "run without the store of past days: ask the service for every past day and keep nothing")
	fl.BoolVar(&f.noRecord, "no-record", false, "record nothing of this run (the flight recorder; `chainwatch record list`)")
	fl.StringVar(&f.svc.authURL, "auth-url", "", "token service URL, {auth_url} (env "+envAuthURL+")")
	fl.StringVar(&f.svc.baseURL, "base-url", "", "data service URL, {base_url} (env "+envBaseURL+")")
	fl.StringVar(&f.svc.clientID, "client-id", "", "OAuth client ID for client credentials (env "+envClientID+"; the secret only from "+envClientSecret+" or the config file)")
	fl.StringVar(&f.svc.tokenFile, "token-file", "", "where the login is kept (env "+envTokenFile+"; default in the user config directory)")
	addClockFlags(cmd, &f.sandboxClock, &f.sandboxSpeed, "sandbox-clock", "sandbox-speed")
}

// runWatchTUI is the production runWatch: the screen takes over the
// terminal until the user quits. A SIGINT is a way to quit, not a failure.
//
// --no-color also sets the program's colour profile to plain ASCII: the
// theme has no colour then, but the huh form's text inputs keep colours of
// their own that no theme reaches, and the profile strips those too.
func runWatchTUI(cfg model.Config, getenv func(string) string, panics *crash.Relay) error {
	var opts []tea.ProgramOption
	if cfg.NoColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	return runScreen(model.New(cfg), screenRun{opts: opts, getenv: getenv, relay: panics})
}

// rootArgs accepts at most one argument, a symbol: a word that is not a
// symbol is most likely a mistyped command, and says so.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return fmt.Errorf("chainwatch takes at most one symbol, not %d arguments (%s); chainwatch --help lists the commands",
			len(args), strings.Join(args, " "))
	}
	if len(args) == 1 {
		if _, err := config.ParseSymbol(args[0]); err != nil {
			return fmt.Errorf("unknown command or %w; chainwatch --help lists the commands", err)
		}
	}
	return nil
}

// watchSettings is everything the screen is told that does not need the
// service: the flags over the config file over the defaults, checked.
type watchSettings struct {
	symbol       string
	mode         api.Mode
	date         api.Date
	budget       feed.Budget
	blockSize    int64
	tapeSize     int
	theme        string
	colorBlind   bool
	noColor      bool
	noFlash      bool
	configExists bool
	service      config.Service
	record       config.Record // the flight recorder's [record] table
	// configPath is the config file in use (--config, else the default
	// path, which need not exist yet): where saved scans are written. ""
	// when there is no user configuration directory.
	configPath string
	scans      []scan.Scan
	// watchlist is the config file's watchlist (or the default one);
	// watchlistSkipped its entries that are not used, with their lines.
	watchlist        []string
	watchlistSkipped []string
	// file is the config file as loaded: its alert rules (alerts_screen.go).
	file config.File
}

// parseDate reads --date: a past day (Eastern) is historical, today is the
// live session (date 0), and a future day has no data yet.
func parseDate(s string, now time.Time) (api.Date, error) {
	d, err := config.ParseDate(s, now)
	if err != nil {
		return 0, fmt.Errorf("--date: %w", err)
	}
	return d, nil
}

// warnings collects what went wrong with the state files while the screen
// ran; they are printed after it exits, once each, since the screen itself
// must not be disturbed by them.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) add(err error) {
	if err == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !slices.Contains(w.list, err.Error()) {
		w.list = append(w.list, err.Error())
	}
}

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.list)
}

// watchRun is the root command: settings, session, client, state, then
// the screen, and after it the session's end and any warnings.
func watchRun(o *WatchOptions) error {
	// The embedded sandbox's clock is the screen's too: "today", the
	// session and the pauses must be the simulated market's.
	clock, err := sandboxClock("--sandbox-clock", o.Flags.sandboxClock, "--sandbox-speed", o.Flags.sandboxSpeed)
	if err != nil {
		return err
	}
	if clock != nil {
		o.Now = clock
	}
	set, err := resolveSettings(o, o.Now())
	if err != nil {
		return badInput(err) // a flag, the symbol or the config file
	}
	var conn *watchConn
	switch {
	case o.replay != nil:
		conn, err = o.replay.open(o, set)
	case o.open != nil:
		conn, err = o.open(o, set)
	default:
		conn, err = openWatchConn(o, set, clock != nil)
	}
	if err != nil {
		return err
	}
	defer conn.close()
	client, source := conn.client, conn.source

	var warn warnings
	var wlSave struct {
		sync.Mutex
		err error
	}
	st := config.OpenState(o.Getenv)
	recent, err := st.Recent()
	warn.add(err)
	firstRun := !set.configExists && !st.FirstRunDone()
	cfg := model.Config{
		Client: client, Source: source, BaseURL: conn.baseURL,
		Symbol: set.symbol, Mode: set.mode, Date: set.date,
		Budget: set.budget.Freed(conn.free), BlockSize: set.blockSize, TapeCapacity: set.tapeSize,
		Theme: set.theme, ColorBlind: set.colorBlind, NoColor: set.noColor, NoFlash: set.noFlash,
		FirstRun: firstRun, Recent: recent, Now: o.Now, ClockSpeed: o.Flags.sandboxSpeed,
		ReturnStartupMemory: true,
		SaveRecent: func(list []string) error {
			err := st.SaveRecent(list)
			warn.add(err)
			return err
		},
		Scans:     set.scans,
		Watchlist: set.watchlist, WatchlistSkipped: set.watchlistSkipped, StartOnWatchlist: o.Flags.watchlist,
	}
	if set.configPath != "" {
		cfg.PositionsPath = config.PositionsPath(set.configPath)
		// The modal shows a failed save itself; the file is the one this
		// run loaded, so what is saved is what the next run lists.
		cfg.SaveScan = func(s scan.Scan) error { return config.SaveScan(set.configPath, s.Saved(), scan.CheckSaved) }
		cfg.DeleteScan = func(name string) error { return config.DeleteScan(set.configPath, name, scan.CheckSaved) }
		// The page shows a failed save; the last save failing (at quit,
		// say) is said after the screen.
		cfg.SaveWatchlist = func(list []string) error {
			err := config.SaveWatchlist(set.configPath, list, scan.CheckSaved)
			wlSave.Lock()
			wlSave.err = err
			wlSave.Unlock()
			return err
		}
	}
	if o.replay != nil {
		cfg.ClockSpeed = o.replay.speed // the screen's timers follow the replay's clock
		cfg.Replay = o.replay.clock
	}
	if firstRun {
		// Now, not after the screen: the banner is shown once even if
		// the screen is killed.
		warn.add(st.MarkFirstRun())
	}
	if o.RunWatch == nil {
		return errors.New("the watch screen is not available in this build")
	}
	stopAlerts, err := screenAlerts(&cfg, o, set, conn.embedded, &warn)
	if err != nil {
		return err
	}
	runErr := o.RunWatch(cfg)
	stopAfter(runErr, stopAlerts)
	wlSave.Lock()
	warn.add(wlSave.err)
	wlSave.Unlock()
	for _, w := range warn.all() {
		fmt.Fprintf(o.ErrOut, "chainwatch: warning: %s\n", w)
	}
	if runErr != nil {
		return fmt.Errorf("the watch screen stopped: %w", runErr)
	}
	return nil
}

// watchConn is what the screen talks to: its client, the badge and base
// URL it shows, whether the embedded sandbox answers, and what to close
// after the screen.
type watchConn struct {
	client   *api.Client
	source   string
	baseURL  string
	embedded bool
	// free: every answer costs nothing here (a bus host answers from the
	// bus, and the source's budget paces what is fetched), so the screen
	// paces its feeds at their shortest intervals, not by a budget.
	free    bool
	closers []func()
}

func (c *watchConn) close() {
	for i := len(c.closers) - 1; i >= 0; i-- {
		c.closers[i]()
	}
}

// openWatchConn opens the session, the store of past days and the
// recorder, and the client on them; the screen's clock (o.Now) then
// follows the service's.
func openWatchConn(o *WatchOptions, set watchSettings, sandboxClocked bool) (*watchConn, error) {
	svc := o.Flags.svc
	svc.file = &set.service
	svc.sandboxNow = o.Now // the embedded sandbox's clock is the screen's (--sandbox-clock, else the process's)
	sess, err := resolveSession(svc, o.Getenv)
	if err != nil {
		return nil, err
	}
	conn := &watchConn{baseURL: sess.baseURL, embedded: sess.source == fromEmbeddedSandbox, closers: []func(){func() { sess.close() }}}
	if sandboxClocked && sess.source != fromEmbeddedSandbox {
		conn.close()
		return nil, usageError{fmt.Errorf("--sandbox-clock sets the embedded sandbox's clock, but chainwatch is using %s; run `chainwatch sandbox --clock` for a standalone one", sess.source)}
	}

	source := sourceProduction
	if u, err := url.Parse(sess.baseURL); err == nil && api.IsLoopbackHost(u.Hostname()) {
		source = sourceLocal // a sandbox or a test service on this machine
	}
	if sess.source == fromEmbeddedSandbox {
		source = sourceSandbox
		if len(o.Args) == 1 {
			if err := checkSandboxSymbol(o, o.Args[0], set.symbol); err != nil {
				conn.close()
				return nil, err
			}
		}
	}
	store := openHistory(context.Background(), o.Getenv, o.Flags.noHistory, sess, o.ErrOut, historyLog(o.Log)...)
	conn.closers = append(conn.closers, func() { closeHistory(store, o.ErrOut) })
	rec := openRecorder(o.Getenv, o.Flags.noRecord, set.record, sess, o.ErrOut)
	conn.closers = append(conn.closers, func() { closeRecorder(rec, o.ErrOut) })
	opts := append(sess.clientOptions(set.mode, o.Now), withRecorders(rec, o.Recorder)...)
	client, err := api.NewClient(append(opts, withHistory(store)...)...)
	if err != nil {
		conn.close()
		return nil, err
	}
	// The screen's "today", session and pauses follow the service's clock
	// (its answers' Date header), from before the first chain is asked.
	o.Now = serviceClock(context.Background(), client)
	conn.client, conn.source = client, source
	return conn, nil
}

// checkSandboxSymbol rejects a symbol the embedded sandbox does not list.
// Its market is known exactly, so a user learns at once that the symbol
// (or the command they mistyped: `chainwatch stauts`) does not exist,
// instead of meeting an empty screen.
func checkSandboxSymbol(o *WatchOptions, arg, sym string) error {
	if _, ok := market.Default().Lookup(sym); ok {
		return nil
	}
	msg := fmt.Sprintf("unknown command or symbol %q for %q: the embedded sandbox has no symbol %s (try SPY, QQQ, AAPL or SPX); chainwatch --help lists the commands",
		arg, o.CommandPath, sym)
	if sugg := o.SuggestFor(arg); len(sugg) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(sugg, "\n\t")
	}
	return badInput(errors.New(msg)) // a mistyped command, most likely: exit status 2
}
