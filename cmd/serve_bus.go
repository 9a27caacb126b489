package cmd

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/serve/bus"
)

// sourceBus is the badge of a host's screens until the source names its
// own.
const sourceBus = "BUS"

// busFlags are serve's flags for the bus (docs/serve-bus.md).
type busFlags struct {
	listen, url, name      string
	creds, users           string
	tlsCert, tlsKey, tlsCA string
	window                 time.Duration
}

func addBusFlags(cmd *cobra.Command, f *busFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "bus-listen", "", "run the desk's bus here, HOST:PORT (NATS with JetStream): this serve is its source and holds the service's credentials")
	fl.StringVar(&f.url, "bus", "", "join a bus, nats://HOST:PORT (another serve's --bus-listen, or a NATS server); without service credentials every answer comes from it")
	fl.StringVar(&f.name, "bus-name", "", "this serve's name on the bus (default its --bus-creds user, else the machine's name and the SSH port)")
	fl.StringVar(&f.creds, "bus-creds", "", "the bus login, a 0600 file: USER PASSWORD, or an nkey seed")
	fl.StringVar(&f.users, "bus-users", "", "who may join --bus-listen, a 0600 file: NAME PASSWORD-OR-NKEY MODES (live,delayed) a line")
	fl.StringVar(&f.tlsCert, "bus-tls-cert", "", "TLS certificate (PEM) of --bus-listen, or this host's client certificate on --bus")
	fl.StringVar(&f.tlsKey, "bus-tls-key", "", "the key (PEM) of --bus-tls-cert")
	fl.StringVar(&f.tlsCA, "bus-tls-ca", "", "CA certificates (PEM) a --bus server's certificate is checked against")
	fl.DurationVar(&f.window, "bus-window", bus.DefaultWindow, "how long the bus keeps tape pages and answers for a host that joins or reconnects")
}

// deskBus is a serve's side of the bus: the embedded server (with
// --bus-listen), the connection, and either the source or a host.
type deskBus struct {
	server *bus.Server
	nc     *nats.Conn
	source *bus.Source
	host   *bus.Host
	url    string
	name   string // this serve's name on the bus: its usage records' host
	log    *slog.Logger
	ctx    context.Context // ends at close
	cancel context.CancelFunc
	mu     sync.Mutex
	now    func() time.Time // the service's clock, for the source's heartbeat
}

// openBus starts or joins the bus when a bus flag says so (nil, nil
// when none does), and sets w up for its role: a source records every
// answer onto the bus; a host answers from it.
func openBus(f busFlags, listen string, w *WatchOptions, fc config.File, state config.State, log *slog.Logger) (*deskBus, error) {
	if f.listen == "" && f.url == "" {
		if f.creds != "" || f.users != "" || f.tlsCert != "" || f.tlsCA != "" {
			return nil, badInput(errors.New("the --bus-* flags need --bus-listen or --bus"))
		}
		return nil, nil
	}
	if f.listen != "" && f.url != "" {
		return nil, badInput(errors.New("--bus-listen runs the bus and --bus joins one: give one"))
	}
	tlsConf, err := busTLS(f)
	if err != nil {
		return nil, badInput(err)
	}
	b := &deskBus{now: time.Now, log: log}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	if f.listen != "" {
		if f.name == "" {
			f.name = defaultBusName(listen)
		}
		if err := b.startServer(f, tlsConf, state, log); err != nil {
			return nil, err
		}
	} else if err := b.join(&f, listen, tlsConf, log); err != nil {
		return nil, err
	}
	hostOnly, err := withoutCredentials(w, fc)
	if err != nil {
		b.close()
		return nil, err
	}
	if f.listen == "" && hostOnly {
		if b.host, err = bus.OpenHost(b.nc, bus.HostOptions{Name: f.name, Window: f.window, Log: log}); err != nil {
			b.close()
			return nil, err
		}
		w.open = b.openHostConn
		b.name = f.name
		log.Info("bus: a host; every answer from the bus", "bus", b.url, "name", f.name)
		return b, nil
	}
	ctx, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	b.source, err = bus.OpenSource(ctx, b.nc, bus.SourceOptions{Host: f.name, Clock: b.clock, Window: f.window, Log: log})
	if err != nil {
		b.close()
		var taken *bus.TakenError
		if errors.As(err, &taken) {
			return nil, badInput(err)
		}
		return nil, err
	}
	w.Recorder = b.source
	b.name = f.name
	log.Info("bus: the source", "bus", b.url, "name", f.name)
	return b, nil
}

// startServer runs the embedded bus, its store in the state directory,
// and connects the source to it in process.
func (b *deskBus) startServer(f busFlags, tlsConf *tls.Config, state config.State, log *slog.Logger) error {
	var users []bus.User
	if f.users != "" {
		var err error
		if users, err = bus.ReadUsers(f.users); err != nil {
			return badInput(fmt.Errorf("--bus-users: %w", err))
		}
	}
	if state.Dir() == "" {
		return badInput(errors.New("no state directory for the bus's store"))
	}
	srv, err := bus.StartServer(bus.ServerOptions{Listen: f.listen, StoreDir: filepath.Join(state.Dir(), "bus"), Users: users, TLS: tlsConf})
	if err != nil {
		return badInput(err)
	}
	b.server, b.url = srv, srv.URL()
	b.nc, err = bus.Connect("", f.name, bus.Creds{}, false, log, srv.SourceOptions()...)
	if err != nil {
		srv.Close()
		return err
	}
	log.Info("bus: listening", "bus", b.url, "users", len(users), "tls", tlsConf != nil)
	return nil
}

// join connects to --bus; a host keeps trying until the bus is there.
// Its name on the bus is its user's (the bus lets a user send wants in
// its own name only), else --bus-name, else the machine's and the port.
func (b *deskBus) join(f *busFlags, listen string, tlsConf *tls.Config, log *slog.Logger) error {
	c := bus.Creds{TLS: tlsConf}
	if f.creds != "" {
		read, err := bus.ReadCreds(f.creds)
		if err != nil {
			return badInput(fmt.Errorf("--bus-creds: %w", err))
		}
		read.TLS = tlsConf
		c = read
	}
	switch {
	case c.User != "" && f.name != "" && f.name != c.User:
		return badInput(fmt.Errorf("--bus-name %s: a host's name on the bus is its user's, %s", f.name, c.User))
	case c.User != "":
		f.name = c.User
	case f.name == "":
		f.name = defaultBusName(listen)
	}
	nc, err := bus.Connect(f.url, f.name, c, true, log)
	if err != nil {
		return badInput(err)
	}
	b.nc, b.url = nc, f.url
	return nil
}

// busTLS is the bus's TLS: the server's certificate (--bus-listen) or a
// host's client certificate, and the CAs a host checks the server with.
func busTLS(f busFlags) (*tls.Config, error) {
	if f.tlsCert == "" && f.tlsKey == "" && f.tlsCA == "" {
		return nil, nil
	}
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return nil, errors.New("--bus-tls-cert and --bus-tls-key go together")
	}
	if f.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey)
		if err != nil {
			return nil, fmt.Errorf("--bus-tls-cert/--bus-tls-key: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	if f.tlsCA != "" {
		pem, err := os.ReadFile(f.tlsCA)
		if err != nil {
			return nil, fmt.Errorf("--bus-tls-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--bus-tls-ca %s holds no PEM certificate", f.tlsCA)
		}
		c.RootCAs = pool
	}
	if f.listen != "" && f.tlsCert == "" {
		return nil, errors.New("--bus-listen with TLS needs --bus-tls-cert and --bus-tls-key")
	}
	return c, nil
}

// withoutCredentials reports whether the serve has no service
// credentials: then, on a bus, its answers all come from the bus, and no
// embedded sandbox is started.
func withoutCredentials(w *WatchOptions, fc config.File) (bool, error) {
	svc := w.Flags.svc
	svc.probe, svc.file = true, &fc.Service
	sess, err := resolveSession(svc, w.Getenv)
	if errors.Is(err, errNoCredentials) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return sess.source == fromEmbeddedSandbox, nil
}

// defaultBusName is the machine's name and the SSH port: two serves on
// one machine are two hosts.
func defaultBusName(listen string) string {
	name := hostName()
	if _, port, err := net.SplitHostPort(listen); err == nil {
		name += "-" + port
	}
	return name
}

// openHostConn is a host's connection for the screen: a client that
// answers every request from the bus (never dialling its base URL), on
// the source's service clock, with the source's badge.
func (b *deskBus) openHostConn(o *WatchOptions, set watchSettings) (*watchConn, error) {
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	badge := sourceBus
	if src := b.host.Badge(ctx); src != "" {
		badge = src
	}
	o.Now = b.host.Now
	client, err := api.NewClient(api.WithBaseURL(replayBaseURL), api.WithMode(set.mode), api.WithClock(o.Now), api.WithReplay(b.host))
	if err != nil {
		return nil, err
	}
	return &watchConn{client: client, source: badge, baseURL: "the bus at " + b.url, free: true}, nil
}

func (b *deskBus) clock() time.Time {
	b.mu.Lock()
	now := b.now
	b.mu.Unlock()
	return now()
}

// close leaves the bus: the source lets its lock go, the server stops.
func (b *deskBus) close() {
	if b == nil {
		return
	}
	b.cancel()
	if b.source != nil {
		b.source.Close()
	}
	if b.host != nil {
		b.host.Close()
	}
	if b.nc != nil {
		b.nc.Close()
	}
	if b.server != nil {
		b.server.Close()
	}
}
