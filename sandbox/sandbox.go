// Package sandbox is a local deployment of the market-data service: the
// token service (OAuth 2.0 / OpenID Connect, on github.com/zitadel/oidc/v3)
// and the data endpoints under one HTTP server. `chainwatch sandbox` runs it
// standalone; the TUI and the tests start it in process on 127.0.0.1:0 and
// talk to it over real loopback HTTP, exactly as they would to production.
package sandbox

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"chainwatch/sandbox/faults"
	"chainwatch/sandbox/quota"
	"chainwatch/sandbox/sim"
)

// Defaults from ../shared/spec/service-conventions.md, "Token service".
const (
	DefaultAccessTokenTTL  = 3600 * time.Second
	DefaultRefreshTokenTTL = 30 * 24 * time.Hour // ours: the spec gives none
	CodeTTL                = 60 * time.Second
	// LoginTTL is how long the login page of one authorize request stays
	// usable: long enough to type a password, short enough that the request
	// table cannot fill up with abandoned logins.
	LoginTTL = 10 * time.Minute
)

// Client IDs registered in every sandbox. The demo client is confidential
// (its secret is random per start); the native client is public and must
// use PKCE. chainwatch login uses the native one by default.
const (
	DemoClientID   = "chainwatch-demo"
	NativeClientID = "chainwatch"
)

// The sandbox's one user, shown on its login page.
const (
	DemoUser     = "demo"
	DemoPassword = "demo"
)

// Config configures Start. The zero value is a sandbox on 127.0.0.1 at a
// free port with the production token lifetimes.
type Config struct {
	// Addr is the listen address; default "127.0.0.1:0". Ignored when
	// Listener is set.
	Addr     string
	Listener net.Listener

	// Logger receives request logs and the token service's error reports.
	// Neither ever holds a secret, token, code or state. Default: discard.
	Logger *slog.Logger

	AccessTokenTTL  time.Duration // default DefaultAccessTokenTTL
	RefreshTokenTTL time.Duration // default DefaultRefreshTokenTTL

	// Now is the clock for expiry decisions (codes, tokens, logins), so
	// tests can move time instead of sleeping. Default time.Now. The
	// market, the points periods and the rate limit follow it too.
	Now func() time.Time

	// Plan is every client's points plan; the zero Plan is professional.
	Plan quota.Plan
	// PerSecond is each client's request rate; 0 is DefaultPerSecond and a
	// negative value is unlimited. Burst is how many requests a client may
	// make at once; < 1 is one second's worth.
	PerSecond float64
	Burst     int
	// Entitlements are the data-provider subscriptions every client holds:
	// nil is all three, an empty non-nil slice none (see ParseEntitlements).
	Entitlements []Entitlement
	// Faults injects failures into the data endpoints; the zero Config
	// injects none.
	Faults faults.Config
	// DemoSecret fixes the demo client's secret (`--client-secret`), so a
	// restarted sandbox accepts the clients of the last one; "" is the
	// saved one under StateDir, else a new random one.
	DemoSecret string
	// StateDir keeps the sandbox's identity across restarts (state.go):
	// keys, the demo secret, grants, refresh and access tokens. "" keeps
	// nothing.
	StateDir string
	// KeyFile keeps the signing keys between starts (keyfile.go): read
	// when it exists, made and written there when it does not; a file
	// open to others, or not one the sandbox wrote, is refused
	// (ErrKeyFile), and a path that cannot be used costs new keys, not
	// the start. A saved state's keys win. "" makes them in memory.
	KeyFile string

	// Market is the simulated market; nil is sim.New on Now. One given
	// should run on Now's clock, since "today" for the scanner and the
	// calendar, and for dates after today, is Now's.
	Market *sim.Market
}

// Server is a running sandbox.
type Server struct {
	// BaseURL is {base_url} and AuthURL is {auth_url} of the spec.
	BaseURL string
	AuthURL string
	// DemoSecret is the demo client's secret: Config.DemoSecret, the saved
	// one, or new on this start. It is printed once by `chainwatch
	// sandbox` and nowhere else.
	DemoSecret string
	stateDir   string

	log      *slog.Logger
	store    *store
	tokens   *tokenService
	data     *dataService
	http     *http.Server
	done     chan struct{}
	serveErr error
}

// Start listens and serves in the background until Close.
func Start(cfg Config) (*Server, error) {
	ln := cfg.Listener
	if ln == nil {
		addr := cfg.Addr
		if addr == "" {
			addr = "127.0.0.1:0"
		}
		var err error
		if ln, err = net.Listen("tcp", addr); err != nil {
			return nil, fmt.Errorf("sandbox: listen on %s: %w", addr, err)
		}
	}
	s, err := newServer(cfg, ln)
	if err != nil {
		ln.Close()
		return nil, err
	}
	go func() {
		defer close(s.done)
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.serveErr = err
			s.log.Error("sandbox stopped serving", "error", err)
		}
	}()
	s.log.Info("sandbox listening", "base_url", s.BaseURL, "auth_url", s.AuthURL)
	return s, nil
}

func newServer(cfg Config, ln net.Listener) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.AccessTokenTTL <= 0 {
		cfg.AccessTokenTTL = DefaultAccessTokenTTL
	}
	if cfg.RefreshTokenTTL <= 0 {
		cfg.RefreshTokenTTL = DefaultRefreshTokenTTL
	}
	var saved *savedState
	if cfg.StateDir != "" {
		var err error
		if saved, err = loadState(cfg.StateDir); err != nil {
			return nil, err
		}
	}
	secret := cfg.DemoSecret
	if err := CheckDemoSecret(secret); secret != "" && err != nil {
		return nil, err
	}
	if secret == "" && saved != nil {
		secret = saved.DemoSecret
	}
	if secret == "" {
		secret = rand.Text() // base32: URL-safe, so Basic form-encoding leaves it unchanged
	}
	base := "http://" + advertisedHost(ln.Addr())
	s := &Server{
		BaseURL:    base,
		AuthURL:    base + authPrefix,
		DemoSecret: secret,
		stateDir:   cfg.StateDir,
		log:        cfg.Logger,
		done:       make(chan struct{}),
	}
	s.store = newStore(cfg, s.DemoSecret, s.BaseURL)
	switch {
	case saved != nil:
		keys, err := saved.keys()
		if err != nil {
			return nil, err
		}
		s.store.keys = keys
		s.store.restoreLocked(saved)
	case cfg.KeyFile != "":
		keys, err := keysFromFile(cfg.KeyFile, cfg.Logger)
		if err != nil {
			return nil, err
		}
		s.store.keys = keys
	default:
		s.store.keys = newKeyPair()
	}
	if err := s.persist(); err != nil {
		return nil, err
	}
	tokens, err := newTokenService(s.AuthURL, s.store)
	if err != nil {
		return nil, err
	}
	s.tokens = tokens
	s.data = newDataService(cfg)
	s.http = &http.Server{
		Handler:           s.routes(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn),
	}
	return s, nil
}

// advertisedHost is the host:port clients should use. A wildcard listen
// address is not something a client can dial, so it becomes loopback.
func advertisedHost(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	ip := tcp.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port))
}

// Close stops the server, letting requests in flight finish for up to two
// seconds and then cutting the rest off. A connection a client opened but
// never used (browsers open them ahead) would otherwise hold it 5 seconds.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// Shutdown stops the server gracefully within ctx, then closes whatever
// connections remain.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.http.Shutdown(ctx)
	if err != nil {
		s.http.Close()
	}
	<-s.done
	if err == nil {
		err = s.serveErr
	}
	return errors.Join(err, s.persist())
}

// persist saves the state when the sandbox keeps one.
func (s *Server) persist() error {
	if s.stateDir == "" {
		return nil
	}
	return s.store.save(s.stateDir, s.DemoSecret)
}

// persisting saves the state after every answer of next (the token and
// revocation endpoints, which change it), so a sandbox that is killed
// rather than stopped loses nothing a client holds.
func (s *Server) persisting(next http.Handler) http.Handler {
	if s.stateDir == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
		if err := s.persist(); err != nil {
			s.log.Warn("sandbox state not saved", "error", err)
		}
	})
}

// OneClientMarket is the simulated market of a sandbox with a single
// client, the one chainwatch embeds. The screen and its sandbox share one
// process's memory, and that client asks for one expiry a tick (the
// whole chain only now and then), which no other client will ask for
// again: the market keeps a few thousand contracts of chains, a few
// expiries or the one whole chain last asked for until the next chain,
// rather than a shared server's tens of thousands. cacheDir keeps each
// day's open interest for the next process (sim.Config.CacheDir); ""
// keeps nothing.
func OneClientMarket(now func() time.Time, cacheDir string) *sim.Market {
	return sim.New(sim.Config{Now: now, ChainContracts: 4096, CacheDir: cacheDir})
}

// EmbeddedMemoryLimit is the soft limit (runtime/debug.SetMemoryLimit)
// of the Go runtime's memory in a process that runs this sandbox beside
// its screen, as chainwatch does without credentials. Polling one expiry
// the limit does not bind. It binds when a whole chain goes through, at
// the start and every half hour: the body on each side of the connection
// and the chain decoded, for a moment. Without it the collector, having
// seen that moment, lets the heap grow to twice it, and the process
// stays that large for minutes after (BenchmarkClientHeapSPX, docs/performance.md).
const EmbeddedMemoryLimit = 56 << 20

// Clock is a sandbox clock that starts at start and runs speed times as
// fast as the real one (`--clock`, `--speed`): a simulated session at any
// hour, or a whole session in minutes. It is monotonic, since it counts
// real time elapsed.
func Clock(start time.Time, speed float64) func() time.Time {
	began := time.Now()
	return func() time.Time { return start.Add(time.Duration(float64(time.Since(began)) * speed)) }
}

// CheckDemoSecret is the rule for a fixed demo secret: 16 to 128
// printable ASCII characters without blanks, so that it survives Basic
// authentication's form encoding and a shell unquoted.
func CheckDemoSecret(secret string) error {
	if n := len(secret); n < 16 || n > 128 {
		return fmt.Errorf("the client secret has %d characters; use 16 to 128", n)
	}
	for _, r := range secret {
		if r <= ' ' || r > '~' {
			return errors.New("the client secret may hold printable ASCII only, without blanks")
		}
	}
	return nil
}

// Done is closed when the server has stopped serving.
func (s *Server) Done() <-chan struct{} { return s.done }
