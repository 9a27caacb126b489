package cmd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/serve"
)

// Serve's defaults: one desk of traders, and a screen left alone for an
// hour is somebody who went home.
const (
	defaultMaxSessions = 20
	defaultIdleTimeout = time.Hour
	hostKeyFile        = "ssh_host_ed25519_key"
	authorizedKeysFile = "authorized_keys"
)

// ServeOptions are serve's inputs: the watch screen's (its flags, the
// service's) and the server's own.
type ServeOptions struct {
	Watch          *WatchOptions
	Listen         string
	AuthorizedKeys string
	HostKey        string
	MaxSessions    int
	IdleTimeout    time.Duration
	// Context ends the server (SIGTERM and SIGINT by default); Ready is
	// told the address it listens on (tests listen on port 0).
	Context context.Context
	Ready   func(net.Addr)
	// Bus are the --bus* flags (serve_bus.go); BusReady is told the
	// embedded bus's URL (tests listen on port 0).
	Bus      busFlags
	BusReady func(url string)
}

// NewCmdServe is `chainwatch serve`: the watch screen for a desk over SSH.
func NewCmdServe(deps Deps, runF func(*ServeOptions) error) *cobra.Command {
	w := &WatchOptions{Getenv: deps.getenv, Now: deps.now, Panics: deps.panics}
	if w.Now == nil {
		w.Now = time.Now
	}
	opts := &ServeOptions{Watch: w}
	cmd := &cobra.Command{
		Use:   "serve --listen ADDR",
		Short: "Serve the watch screen over SSH to a desk, on one subscription",
		Long: `serve runs one chainwatch for many traders: each connects with ssh and gets
the whole screen in their own terminal, while one data monitor fetches every
feed once, however many sessions show it, within one point budget.

Logins are by public key only, from the authorized_keys file (one line per
trader; the key's comment names the state kept for it in the state
directory's serve/NAME: recent symbols, and a config.toml of its own for the
watchlist, saved scans and alert rules, positions.toml, the alert log). The
host key is made once and kept. The server's own alert rules are the desk's:
evaluated on the same monitor, their events in the server's log. A command after
-- runs headless on the served subscription: ssh HOST -- chain SPY --json;
its points are charged to the desk's day and the key's share ([serve]
key_share) before it is sent, and refused past either.

Several serves share one subscription over a NATS bus: the one with the
service's credentials runs it (--bus-listen) or joins one (--bus) as its
source and fetches for all; a serve with --bus and no credentials takes
every answer from the bus (docs/serve-bus.md).`,
		Example: `  chainwatch serve --listen 127.0.0.1:2222
  ssh -p 2222 127.0.0.1                     the screen
  ssh -p 2222 127.0.0.1 -- chain SPY --json   a command, with its exit status
  chainwatch serve --listen 127.0.0.1:2222 --bus-listen 127.0.0.1:4222
  chainwatch serve --listen 127.0.0.1:2223 --bus nats://127.0.0.1:4222`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w.ErrOut, w.Changed, w.CommandPath = cmd.ErrOrStderr(), cmd.Flags().Changed, cmd.CommandPath()
			w.SuggestFor = func(string) []string { return nil }
			if runF != nil {
				return runF(opts)
			}
			return serveRun(opts)
		},
	}
	addWatchFlags(cmd, &w.Flags)
	fl := cmd.Flags()
	fl.StringVar(&opts.Listen, "listen", "", "the address to listen on, HOST:PORT (bind a private address: 127.0.0.1:2222, 10.0.0.5:2222)")
	fl.StringVar(&opts.AuthorizedKeys, "authorized-keys", "", "the public keys let in, one a line (default "+authorizedKeysFile+" in the config directory)")
	fl.StringVar(&opts.HostKey, "host-key", "", "the server's private host key, made once if missing (default "+hostKeyFile+" in the state directory)")
	fl.IntVar(&opts.MaxSessions, "max-sessions", defaultMaxSessions, "sessions at once (screens and commands); beyond it a login is refused with a message")
	fl.DurationVar(&opts.IdleTimeout, "idle-timeout", defaultIdleTimeout, "close a screen with no key pressed, or a connection with no traffic, this long (0: never)")
	addBusFlags(cmd, &opts.Bus)
	_ = cmd.MarkFlagRequired("listen")
	cmd.AddCommand(NewCmdServeUsage(deps, nil))
	return cmd
}

// serveRun checks the server's flags and files, then runs the watch
// screen's set-up (settings, session, client) with a server in place of
// the terminal.
func serveRun(o *ServeOptions) error {
	if _, _, err := net.SplitHostPort(o.Listen); err != nil {
		return badInput(fmt.Errorf("--listen %q: want HOST:PORT, e.g. 127.0.0.1:2222", o.Listen))
	}
	if o.MaxSessions < 0 || o.IdleTimeout < 0 {
		return badInput(errors.New("--max-sessions and --idle-timeout cannot be negative"))
	}
	getenv := o.Watch.Getenv
	if o.AuthorizedKeys == "" {
		dir, err := config.UserConfigDir(getenv)
		if err != nil {
			return badInput(fmt.Errorf("no config directory for the authorized keys (%w); give --authorized-keys", err))
		}
		o.AuthorizedKeys = filepath.Join(dir, "chainwatch", authorizedKeysFile)
	}
	if _, err := serve.CheckAuthorizedKeys(o.AuthorizedKeys); err != nil {
		return badInput(fmt.Errorf("--authorized-keys: %w", err))
	}
	// [serve] key_share of the server's config file (the screen's set-up
	// reads the file again, and says what is wrong with it).
	fc, _, _, err := configFile(o.Watch.Flags.configPath, o.Watch.Changed("config"), getenv)
	if err != nil {
		return badInput(err)
	}
	keyShare := fc.Serve.KeyShare
	state := config.OpenState(getenv)
	if o.HostKey == "" {
		if state.Dir() == "" {
			return badInput(errors.New("no state directory for the host key; give --host-key"))
		}
		o.HostKey = filepath.Join(state.Dir(), hostKeyFile)
	}
	signer, made, err := serve.HostKey(o.HostKey)
	if err != nil {
		return badInput(fmt.Errorf("--host-key: %w", err))
	}
	ctx := o.Context
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		defer stop()
	}
	log := slog.New(slog.NewTextHandler(o.Watch.ErrOut, nil))
	if made {
		log.Info("host key made", "path", o.HostKey, "fingerprint", fingerprint(signer))
	}
	logPanics(o.Watch, log)
	var served error
	w := *o.Watch
	w.Log = log
	w.Flags.svc.desk = true
	b, err := openBus(o.Bus, o.Listen, &w, fc, state, log)
	if err != nil {
		return err
	}
	defer b.close()
	if b != nil && b.server != nil && o.BusReady != nil {
		o.BusReady(b.url)
	}
	w.RunWatch = func(cfg model.Config) error {
		ln, err := net.Listen("tcp", o.Listen)
		if err != nil {
			served = err
			return nil
		}
		log.Info("serving", "listen", ln.Addr().String(), "source", cfg.Source, "host key", fingerprint(signer), "authorized keys", o.AuthorizedKeys)
		if o.Ready != nil {
			o.Ready(ln.Addr())
		}
		d := newDesk(cfg, state.In("serve"), getenv, log)
		defer d.close()
		d.usage, d.host = deskUsage(state, log), hostName()
		d.usage = b.usage(d.usage)
		b.attach(d, cfg)
		if keyShare != nil {
			d.ledger.Share = *keyShare
		}
		served = d.serve(ctx, ln, serve.Options{HostKey: signer, AuthorizedKeys: o.AuthorizedKeys,
			MaxSessions: o.MaxSessions, IdleTimeout: o.IdleTimeout})
		log.Info("stopped")
		return nil
	}
	if err := watchRun(&w); err != nil {
		return err
	}
	return served
}

func fingerprint(s gossh.Signer) string { return gossh.FingerprintSHA256(s.PublicKey()) }

// desk is what every session of one server shares: the screen's settings,
// the one monitor, the one pool of alert rules on it (every key's, and the
// server's own), and where each key's state is kept (serve_state.go).
type desk struct {
	base   model.Config
	mon    *feed.Monitor
	pool   *alert.Pool
	server *alert.Engine // the server's config file's rules; nil: none
	state  config.State  // the serve directory; each key's state in a subdirectory
	ledger *serve.Ledger // the day's points of the keys' one-shot commands
	getenv func(string) string
	log    *slog.Logger

	// usage takes every session's start and end (serve_usage_desk.go);
	// nil: none. host names this host in it.
	usage serve.UsageSink
	host  string

	mu   sync.Mutex
	keys map[string]*keyAlerts // by key name, while a session of it is open
}

// newDesk serves cfg's screen. cfg.Monitor, when set, is the desk's one
// monitor, and cfg.Alerts the server's own rules on it (screenAlerts made
// both): every key's rules join their pool. Without them the desk makes
// its monitor and an empty pool. log is the server's log, set once here:
// sessions write to it from their own goroutines.
func newDesk(cfg model.Config, state config.State, getenv func(string) string, log *slog.Logger) *desk {
	d := &desk{mon: cfg.Monitor, server: cfg.Alerts, state: state, getenv: getenv,
		log: log, keys: map[string]*keyAlerts{}}
	if d.mon == nil {
		d.mon = feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: cfg.Client, Now: cfg.Now},
			Clock: feed.RealClock{NowFunc: cfg.Now}, Budget: cfg.Budget})
	}
	if d.server != nil {
		d.pool = d.server.Pool()
	} else {
		d.pool = deskPool(cfg, d.mon)
	}
	d.ledger = &serve.Ledger{Desk: d.day, Now: cfg.Now}
	cfg.Monitor = d.mon
	cfg.FirstRun = false // the desk's box set up the service; a trader's first screen needs no banner
	// What is the server's own is no session's: each key has its own
	// (keyState), and a desktop notification would reach the server's
	// desktop, not the trader's: the bell only.
	cfg.Alerts, cfg.SaveAlert, cfg.DeleteAlert, cfg.Desktop, cfg.NoBell = nil, nil, nil, alert.Desktop{}, false
	cfg.SaveWatchlist, cfg.SaveScan, cfg.DeleteScan, cfg.PositionsPath = nil, nil, nil, ""
	// Sessions share the desk's process: a forced collection at each
	// screen's first chain would be every screen's cost (common.Settle).
	cfg.ReturnStartupMemory = false
	d.base = cfg
	return d
}

// day is the desk's points booked on now's trading day and its day's
// budget: --budget-per-day (or [budget] points_per_day), else what the
// share of the month's points allows an hour, for a whole session.
func (d *desk) day(now time.Time) (spent, budget int) {
	return dayBudget(d.mon, d.base.Budget.PerDay, now)
}

// close stops the pool's fetches and the monitor.
func (d *desk) close() {
	d.pool.Close()
	d.mon.Close()
}

// serve runs the server on ln until ctx ends, with the server's own rules
// fetching and their events in the server's log.
func (d *desk) serve(ctx context.Context, ln net.Listener, o serve.Options) error {
	o.Screen, o.Exec, o.Log, o.Admit = d.screen, d.exec, d.log, d.admit
	srv, err := serve.New(o)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	if d.server != nil {
		go d.logDeskAlerts(ctx)
		d.server.Fetch()
	}
	return srv.Serve(ctx, ln)
}

// screen is a session's watch screen, on the shared monitor, with the
// key's own state (keyState); its done func closes the screen, then
// releases the key's alert rules.
func (d *desk) screen(u serve.User) (tea.Model, func()) {
	cfg := d.base
	release := d.keyState(u.Name, &cfg)
	app := model.New(cfg)
	ended := d.recordUsage(u, serve.UsageScreen, screenRealTime)
	return app, func() {
		app.Close()
		release()
		ended()
	}
}

// servedClient is the served session's client and monitor, which an exec
// request's command uses instead of a session of its own: its points are
// the server's, booked in its budget, and a --watch is a job of the shared
// monitor (two traders running the same command line share its runs).
type servedClient struct {
	client *api.Client
	mon    *feed.Monitor
	line   string // the command line, naming a --watch job
	// charge books a one-shot command's plan to the desk's day and the
	// key's share before it is sent (serve.Ledger), or refuses it; an mcp
	// session adds its cap (mcp_budget.go).
	charge func(plan costPlan) (settle func(spent int), err error)
	// positions is the key's positions file (positions, strategy --save);
	// "" when the server keeps no state for keys.
	positions string
	// day is the desk's day (desk.day), of which an mcp session's default
	// cap is a share; log is the server's, naming the key.
	day func(now time.Time) (spent, budget int)
	log *slog.Logger
}
