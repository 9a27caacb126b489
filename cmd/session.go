package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/sandbox"
	"chainwatch/scan"
)

// Environment variables that configure the service. The TOML config file
// (config.go) is a third source below them; flags win over all.
const (
	envAuthURL      = "CHAINWATCH_AUTH_URL"
	envBaseURL      = "CHAINWATCH_BASE_URL"
	envClientID     = "CHAINWATCH_CLIENT_ID"
	envClientSecret = "CHAINWATCH_CLIENT_SECRET" // never a flag: flags show in `ps`
	envTokenFile    = "CHAINWATCH_TOKEN_FILE"
)

// errNoCredentials is a service without credentials to it: serve on a
// bus then takes its answers from the bus (serve_bus.go).
var errNoCredentials = errors.New("a service URL is configured but there are no credentials: run `chainwatch login`, or set " +
	envClientID + " and " + envClientSecret + " (or client_id and client_secret in the config file) for client credentials")

// sessionSource says where a session's credentials came from.
type sessionSource string

const (
	fromClientCredentials sessionSource = "client credentials"
	fromStoredLogin       sessionSource = "stored login"
	fromEmbeddedSandbox   sessionSource = "embedded sandbox"
)

// session is what the rest of chainwatch needs to talk to the service:
// where it is and a token source. close stops what the session started
// (the embedded sandbox).
type session struct {
	source  sessionSource
	baseURL string
	auth    api.AuthConfig
	tokens  api.TokenSource
	store   string // token file of a stored login
	close   func() error
}

// clientOptions are what every client of the session is made with: the
// service, the token source, the data mode, and the clock that says what
// "today" is until the service's first answer does.
func (s *session) clientOptions(mode api.Mode, now func() time.Time) []api.Option {
	return []api.Option{api.WithBaseURL(s.baseURL), api.WithTokenSource(s.tokens), api.WithMode(mode), api.WithClock(now)}
}

// serviceFlags are the connection settings from flags; empty means unset.
type serviceFlags struct {
	authURL, baseURL, clientID, tokenFile string
	// sandboxNow is the embedded sandbox's clock; nil the real one.
	sandboxNow func() time.Time
	// desk says the process serves many screens (serve): the embedded
	// sandbox's memory limit, sized for one screen beside it, is not set.
	desk bool
	// oneShot says a one-shot headless command runs (oneShotGC): its
	// own limit bounds it, and the embedded sandbox's, sized for a
	// screen that lives for hours, would only make it collect.
	oneShot bool

	// probe asks only which source a session would use: the embedded
	// sandbox is not started (its session has no client).
	probe bool

	// file is the [service] table of the config file the watch screen
	// loaded. nil (login, logout, status) reads the file at the default
	// path, so that every command finds the same service and login.
	file *config.Service
}

// pick returns the flag if set, else the environment variable.
func pick(flag string, getenv func(string) string, env string) string {
	if flag != "" {
		return flag
	}
	return strings.TrimSpace(getenv(env))
}

// pickConf returns the flag if set, else the environment variable, else
// the config file's value: an explicit setting beats a remembered one.
func pickConf(flag string, getenv func(string) string, env, conf string) string {
	if v := pick(flag, getenv, env); v != "" {
		return v
	}
	return conf
}

// config.Service returns the [service] table of the config file: the one
// the watch screen loaded, else the file at the default path (none when
// there is no user config directory).
func (f serviceFlags) serviceConfig(getenv func(string) string) (config.Service, error) {
	if f.file != nil {
		return *f.file, nil
	}
	path, err := config.DefaultPath(getenv)
	if err != nil {
		return config.Service{}, nil // no home directory, so no config file either
	}
	fc, _, err := config.Load(path, false, scan.CheckSaved)
	if err != nil {
		return config.Service{}, err
	}
	return fc.Service, nil
}

// tokenPath is where the login is kept: --token-file, CHAINWATCH_TOKEN_FILE,
// the config file's token_file, else token.json in the user config directory.
func tokenPath(f serviceFlags, getenv func(string) string) (string, error) {
	conf, err := f.serviceConfig(getenv)
	if err != nil {
		return "", err
	}
	return tokenPathIn(f, getenv, conf)
}

func tokenPathIn(f serviceFlags, getenv func(string) string, conf config.Service) (string, error) {
	if p := pickConf(f.tokenFile, getenv, envTokenFile, conf.TokenFile); p != "" {
		return p, nil
	}
	dir, err := config.UserConfigDir(getenv)
	if err != nil {
		return "", fmt.Errorf("cannot find the user configuration directory for the token file (%v); pass --token-file or set %s", err, envTokenFile)
	}
	return filepath.Join(dir, "chainwatch", "token.json"), nil
}

// checkServiceURLs refuses a service URL that is not one (a usage error).
func checkServiceURLs(authURL, baseURL string) error {
	for _, u := range []struct{ flag, val string }{{"--auth-url", authURL}, {"--base-url", baseURL}} {
		if u.val == "" {
			continue
		}
		if err := api.CheckServiceURL(u.val, u.flag); err != nil {
			return usageError{err}
		}
	}
	return nil
}

// clientCredentials is the session of a client secret (from the
// environment, else the config file); ok is false when there is none.
func clientCredentials(getenv func(string) string, conf config.Service, authURL, baseURL, clientID string) (s *session, ok bool, err error) {
	secretFrom := envClientSecret + " is set"
	secret := strings.TrimSpace(getenv(envClientSecret))
	if secret == "" && conf.ClientSecret != "" {
		secret, secretFrom = string(conf.ClientSecret), "client_secret is set in "+conf.Path
	}
	if secret == "" {
		return nil, false, nil
	}
	if authURL == "" || baseURL == "" || clientID == "" {
		return nil, true, fmt.Errorf("%s, so chainwatch uses client credentials, which also need the client ID, the auth URL and the base URL (--client-id/%s, --auth-url/%s, --base-url/%s, or client_id, auth_url, base_url in the config file's [service])",
			secretFrom, envClientID, envAuthURL, envBaseURL)
	}
	cfg := api.AuthConfig{AuthURL: authURL, ClientID: clientID, ClientSecret: secret}
	ts, err := api.NewClientCredentials(cfg)
	if err != nil {
		return nil, true, err
	}
	return &session{source: fromClientCredentials, baseURL: baseURL, auth: cfg, tokens: ts, close: noClose}, true, nil
}

// resolveSession finds credentials in this order: a client ID and secret
// from flags, environment or the config file (explicit beats remembered),
// then a stored login, then none, which starts the embedded sandbox so that
// chainwatch always has something to show. Each setting is taken from the
// flag, else the environment, else the config file, so a config file can
// hold the service while a flag points one run elsewhere. It is the one
// place the TUI and the commands decide where they connect.
func resolveSession(f serviceFlags, getenv func(string) string) (*session, error) {
	conf, err := f.serviceConfig(getenv)
	if err != nil {
		return nil, err
	}
	authURL := pickConf(f.authURL, getenv, envAuthURL, conf.AuthURL)
	baseURL := pickConf(f.baseURL, getenv, envBaseURL, conf.BaseURL)
	clientID := pickConf(f.clientID, getenv, envClientID, conf.ClientID)
	if err := checkServiceURLs(authURL, baseURL); err != nil {
		return nil, err
	}
	if s, ok, err := clientCredentials(getenv, conf, authURL, baseURL, clientID); ok {
		return s, err
	}

	path, err := tokenPathIn(f, getenv, conf)
	if err != nil {
		// No home directory: there can be no stored login, and the
		// embedded sandbox below needs none.
		path = ""
	}
	var (
		tok   *oauth2.Token
		svc   *api.LoginService
		store = api.FileTokenStore{Path: path}
	)
	if path != "" {
		if tok, svc, err = store.LoadLogin(); err != nil {
			// A token file that is not one (a FIFO, a device, too large,
			// corrupt, readable by others) is the user's to fix: exit 2.
			return nil, badInput(err)
		}
	}
	if tok != nil {
		if svc == nil || svc.AuthURL == "" || svc.ClientID == "" {
			return nil, fmt.Errorf("the stored login in %s does not say which service it belongs to; run `chainwatch login` again", path)
		}
		if baseURL == "" {
			baseURL = svc.BaseURL
		}
		if baseURL == "" {
			return nil, fmt.Errorf("the stored login in %s has no base URL; pass --base-url or set %s, or log in again with --base-url", path, envBaseURL)
		}
		cfg := api.AuthConfig{AuthURL: svc.AuthURL, ClientID: svc.ClientID, Scopes: svc.Scopes}
		return &session{source: fromStoredLogin, baseURL: baseURL, auth: cfg, store: path,
			tokens: cfg.NewRefreshingSource(tok, store), close: noClose}, nil
	}

	if authURL != "" || baseURL != "" {
		return nil, errNoCredentials
	}
	if f.probe {
		return &session{source: fromEmbeddedSandbox, close: noClose}, nil
	}
	return startEmbedded(f.sandboxNow, getenv, !f.desk && !f.oneShot)
}

func noClose() error { return nil }

// startEmbedded starts the sandbox in process and signs in to it with the
// demo client, over loopback HTTP and real OAuth2, as with production.
// Its keys are kept in the state directory (without one, made anew).
// limit sets the process's soft memory limit for one screen beside the
// sandbox; a desk's sessions, each with a screen and its renderer, would
// keep the collector running under it.
func startEmbedded(now func() time.Time, getenv func(string) string, limit bool) (*session, error) {
	if now == nil {
		now = time.Now
	}
	restore := func() {}
	if limit && os.Getenv("GOMEMLIMIT") == "" { // the user's own limit wins
		// Process-wide, so the session gives it back when it closes (a
		// test process starts many sessions, other work after them).
		prev := debug.SetMemoryLimit(sandbox.EmbeddedMemoryLimit)
		restore = func() { debug.SetMemoryLimit(prev) }
	}
	keyFile := ""
	if dir, err := config.UserStateDir(getenv); err == nil {
		keyFile = filepath.Join(dir, config.SandboxKeys)
	}
	cacheDir := ""
	if dir, err := config.UserCacheDir(getenv); err == nil {
		cacheDir = filepath.Join(dir, config.SandboxCache)
	}
	sb, err := sandbox.Start(sandbox.Config{Now: now, Market: sandbox.OneClientMarket(now, cacheDir), KeyFile: keyFile})
	if err != nil {
		restore()
		if errors.Is(err, sandbox.ErrKeyFile) {
			return nil, badInput(err) // the user's file to fix: exit 2
		}
		return nil, err
	}
	cfg := api.AuthConfig{AuthURL: sb.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: sb.DemoSecret}
	ts, err := api.NewClientCredentials(cfg)
	if err != nil {
		sb.Close()
		restore()
		return nil, err
	}
	closeAll := func() error {
		defer restore()
		return sb.Close()
	}
	return &session{source: fromEmbeddedSandbox, baseURL: sb.BaseURL, auth: cfg, tokens: ts, close: closeAll}, nil
}

// check proves the session works: a login asks the token service who it
// is; client credentials make a free data request.
func (s *session) check(ctx context.Context) (string, error) {
	if s.source == fromStoredLogin {
		u, err := s.auth.UserInfo(ctx, s.tokens)
		if err != nil {
			return "", err
		}
		return u.Display(), nil
	}
	// A client's own token stands for no user, and userinfo refuses it
	// (OpenID Connect: userinfo describes a person). A free reference
	// request proves the token and the data service instead.
	c, err := api.NewClient(api.WithBaseURL(s.baseURL), api.WithTokenSource(s.tokens))
	if err != nil {
		return "", err
	}
	if _, _, err := c.Exchanges(ctx, api.ReferenceParams{}); err != nil {
		return "", err
	}
	return s.auth.ClientID + " (client credentials)", nil
}
