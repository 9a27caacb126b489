package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// Environment variables that configure the service. The TOML config file
// of the watch screen adds a third source; flags win over both.
const (
	envAuthURL      = "CHAINWATCH_AUTH_URL"
	envBaseURL      = "CHAINWATCH_BASE_URL"
	envClientID     = "CHAINWATCH_CLIENT_ID"
	envClientSecret = "CHAINWATCH_CLIENT_SECRET" // never a flag: flags show in `ps`
	envTokenFile    = "CHAINWATCH_TOKEN_FILE"
)

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

// serviceFlags are the connection settings from flags; empty means unset.
type serviceFlags struct {
	authURL, baseURL, clientID, tokenFile string
}

// pick returns the flag if set, else the environment variable.
func pick(flag string, getenv func(string) string, env string) string {
	if flag != "" {
		return flag
	}
	return strings.TrimSpace(getenv(env))
}

func tokenPath(f serviceFlags, getenv func(string) string) (string, error) {
	if p := pick(f.tokenFile, getenv, envTokenFile); p != "" {
		return p, nil
	}
	return api.DefaultTokenPath()
}

// resolveSession finds credentials in this order: a client ID and secret
// from flags or environment (explicit beats remembered), then a stored
// login, then none, which starts the embedded sandbox so that chainwatch
// always has something to show. It is the one place the TUI and the
// commands decide where they connect.
func resolveSession(f serviceFlags, getenv func(string) string) (*session, error) {
	authURL := pick(f.authURL, getenv, envAuthURL)
	baseURL := pick(f.baseURL, getenv, envBaseURL)
	clientID := pick(f.clientID, getenv, envClientID)
	secret := strings.TrimSpace(getenv(envClientSecret))

	if secret != "" {
		if authURL == "" || baseURL == "" || clientID == "" {
			return nil, fmt.Errorf("%s is set, so chainwatch uses client credentials, which also need the client ID, the auth URL and the base URL (--client-id/%s, --auth-url/%s, --base-url/%s)",
				envClientSecret, envClientID, envAuthURL, envBaseURL)
		}
		cfg := api.AuthConfig{AuthURL: authURL, ClientID: clientID, ClientSecret: secret}
		ts, err := api.NewClientCredentials(cfg)
		if err != nil {
			return nil, err
		}
		return &session{source: fromClientCredentials, baseURL: baseURL, auth: cfg, tokens: ts, close: noClose}, nil
	}

	path, err := tokenPath(f, getenv)
	if err != nil {
		return nil, err
	}
	store := api.FileTokenStore{Path: path}
	tok, svc, err := store.LoadLogin()
	if err != nil {
		return nil, err
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
		return nil, errors.New("a service URL is configured but there are no credentials: run `chainwatch login`, or set " +
			envClientID + " and " + envClientSecret + " for client credentials")
	}
	return startEmbedded()
}

func noClose() error { return nil }

// startEmbedded starts the sandbox in process and signs in to it with the
// demo client, over loopback HTTP and real OAuth2, as with production.
func startEmbedded() (*session, error) {
	sb, err := sandbox.Start(sandbox.Config{})
	if err != nil {
		return nil, err
	}
	cfg := api.AuthConfig{AuthURL: sb.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: sb.DemoSecret}
	ts, err := api.NewClientCredentials(cfg)
	if err != nil {
		sb.Close()
		return nil, err
	}
	return &session{source: fromEmbeddedSandbox, baseURL: sb.BaseURL, auth: cfg, tokens: ts, close: sb.Close}, nil
}

// check proves the session works by asking the token service who it is.
func (s *session) check(ctx context.Context) (string, error) {
	u, err := s.auth.UserInfo(ctx, s.tokens)
	if err != nil {
		return "", err
	}
	return u.Display(), nil
}
