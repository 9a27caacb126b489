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
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/scan"
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
}

// NewCmdServe is `chainwatch serve`: the watch screen for a desk over SSH.
func NewCmdServe(deps Deps, runF func(*ServeOptions) error) *cobra.Command {
	w := &WatchOptions{Getenv: deps.getenv, Now: deps.now}
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
trader; the key's comment names the state kept for it: recent symbols,
watchlist, saved scans). The host key is made once and kept. A command after
-- runs headless on the served subscription: ssh HOST -- chain SPY --json.`,
		Example: `  chainwatch serve --listen 127.0.0.1:2222
  ssh -p 2222 127.0.0.1                     the screen
  ssh -p 2222 127.0.0.1 -- chain SPY --json   a command, with its exit status`,
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
	_ = cmd.MarkFlagRequired("listen")
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
	var served error
	w := *o.Watch
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
		d := newDesk(cfg, state.In("serve"), getenv)
		defer d.mon.Close()
		served = d.serve(ctx, ln, serve.Options{HostKey: signer, AuthorizedKeys: o.AuthorizedKeys,
			MaxSessions: o.MaxSessions, IdleTimeout: o.IdleTimeout, Log: log})
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
// the one monitor, and where each trader's state is kept.
type desk struct {
	base   model.Config
	mon    *feed.Monitor
	state  config.State // the serve directory; each key's state in a subdirectory
	getenv func(string) string
}

func newDesk(cfg model.Config, state config.State, getenv func(string) string) *desk {
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: cfg.Client, Now: cfg.Now},
		Clock: feed.RealClock{NowFunc: cfg.Now}, Budget: cfg.Budget})
	cfg.FirstRun = false // the desk's box set up the service; a trader's first screen needs no banner
	return &desk{base: cfg, mon: mon, state: state, getenv: getenv}
}

// serve runs the server on ln until ctx ends.
func (d *desk) serve(ctx context.Context, ln net.Listener, o serve.Options) error {
	o.Screen, o.Exec = d.screen, d.exec
	srv, err := serve.New(o)
	if err != nil {
		return err
	}
	return srv.Serve(ctx, ln)
}

// screen is a session's watch screen, on the shared monitor, with the
// key's own state: recent symbols, and a config file of its own for the
// watchlist and saved scans (the server's are the starting point).
func (d *desk) screen(u serve.User) (tea.Model, func()) {
	cfg := d.base
	cfg.Monitor = d.mon
	st := d.state.In(u.Name)
	cfg.Recent, _ = st.Recent()
	cfg.SaveRecent = st.SaveRecent
	cfg.SaveWatchlist, cfg.SaveScan, cfg.DeleteScan = nil, nil, nil
	if dir := st.Dir(); dir != "" {
		path := filepath.Join(dir, "config.toml")
		if fc, exists, err := config.Load(path, false, scan.CheckSaved); exists && err == nil {
			if wl := fc.WatchlistSymbols(); wl != nil {
				cfg.Watchlist, cfg.WatchlistSkipped = wl, fc.WatchlistWarnings()
			}
			cfg.Scans = append(cfg.Scans[:len(cfg.Scans):len(cfg.Scans)], scan.FromSavedAll(fc.SavedScans())...)
		}
		cfg.SaveWatchlist = func(list []string) error { return config.SaveWatchlist(path, list, scan.CheckSaved) }
		cfg.SaveScan = func(s scan.Scan) error { return config.SaveScan(path, s.Saved(), scan.CheckSaved) }
		cfg.DeleteScan = func(name string) error { return config.DeleteScan(path, name, scan.CheckSaved) }
	}
	app := model.New(cfg)
	return app, app.Close
}

// servedClient is the served session's client and monitor, which an exec
// request's command uses instead of a session of its own: its points are
// the server's, booked in its budget, and a --watch is a job of the shared
// monitor (two traders running the same command line share its runs).
type servedClient struct {
	client *api.Client
	mon    *feed.Monitor
	line   string // the command line, naming a --watch job
}
