package sandbox_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"chainwatch/sandbox"
)

func TestRedirectURI(t *testing.T) {
	t.Parallel()

	// An unregistered redirect URI is refused on the spot: 400, and no
	// redirect anywhere, least of all to the URI itself.
	for _, uri := range []string{
		"http://example.com/callback",
		"https://127.0.0.1/callback",
		"http://127.0.0.1/other",
		"http://127.0.0.1/callback?next=x",
		"http://127.0.0.1/callback#frag",
		"http://127.0.0.1:1@evil.example/callback",
		"http://user@127.0.0.1/callback",
		"http://127.0.0.1.evil.example/callback",
		"http://10.0.0.1/callback",
		"",
	} {
		t.Run("refused "+uri, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			for _, cfg := range []*oauth2.Config{e.nativeConfig(uri), e.demoConfig(uri)} {
				state := e.newState()
				resp, body := e.get(cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(e.newVerifier())), nil)
				if resp.StatusCode != http.StatusBadRequest {
					t.Errorf("%s: status %d, want 400", cfg.ClientID, resp.StatusCode)
				}
				if loc := resp.Header.Get("Location"); loc != "" {
					t.Errorf("%s: redirects to %q", cfg.ClientID, loc)
				}
				if strings.Contains(body, state) {
					t.Errorf("%s: error page echoes the state", cfg.ClientID)
				}
			}
		})
	}

	t.Run("unknown client", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4)
		cfg.ClientID = "no-such-client"
		resp, _ := e.get(cfg.AuthCodeURL(e.newState(), oauth2.S256ChallengeOption(e.newVerifier())), nil)
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
			t.Errorf("status %d Location %q, want 400 and no redirect", resp.StatusCode, resp.Header.Get("Location"))
		}
	})

	// RFC 8252 section 7.3: a loopback redirect may use any port.
	for _, uri := range []string{"http://127.0.0.1:49152/callback", "http://[::1]:8765/callback", "http://localhost:1/callback", redirectLocal} {
		t.Run("accepted "+uri, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			tok := e.login(e.nativeConfig(uri)) // authorize checks the callback goes to uri
			e.wantLive(tok.AccessToken)
		})
	}

	t.Run("other redirect at exchange", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		code, verifier := e.code(e.nativeConfig("http://127.0.0.1:5000/callback"))
		tok, err := e.exchange(e.nativeConfig("http://127.0.0.1:5001/callback"), code, verifier)
		if tok != nil {
			t.Fatalf("exchange with another redirect_uri issued a token")
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	})
}

func TestAuthorizeRequest(t *testing.T) {
	t.Parallel()

	// errorRedirect runs an authorize request that must fail back to the
	// client: 302 to the redirect URI with error and the state, no code.
	errorRedirect := func(t *testing.T, e *env, authURL, state, wantErr string) {
		t.Helper()
		resp, body := e.get(authURL, nil)
		if resp.StatusCode != http.StatusFound {
			t.Fatalf("status %d, want 302: %s", resp.StatusCode, body)
		}
		cb := location(t, resp)
		q := cb.Query()
		if got := cb.Scheme + "://" + cb.Host + cb.Path; got != redirectV4 {
			t.Errorf("redirects to %s, want %s", got, redirectV4)
		}
		if q.Get("error") != wantErr || q.Get("state") != state || q.Has("code") {
			t.Errorf("callback error %q, state echoed %v, code %v; want %s, true, false",
				q.Get("error"), q.Get("state") == state, q.Has("code"), wantErr)
		}
	}

	t.Run("public client without PKCE", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		state := e.newState()
		errorRedirect(t, e, e.nativeConfig(redirectV4).AuthCodeURL(state), state, "invalid_request")
	})

	t.Run("plain PKCE", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		state, verifier := e.newState(), e.newVerifier()
		u := e.nativeConfig(redirectV4).AuthCodeURL(state,
			oauth2.SetAuthURLParam("code_challenge", verifier),
			oauth2.SetAuthURLParam("code_challenge_method", "plain"))
		errorRedirect(t, e, u, state, "invalid_request")
	})

	t.Run("unknown scope", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		state := e.newState()
		u := e.nativeConfig(redirectV4, "api.market", "admin").AuthCodeURL(state, oauth2.S256ChallengeOption(e.newVerifier()))
		errorRedirect(t, e, u, state, "invalid_scope")
	})

	t.Run("token response type", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		state := e.newState()
		u := e.demoConfig(redirectV4).AuthCodeURL(state, oauth2.SetAuthURLParam("response_type", "token"))
		errorRedirect(t, e, u, state, "unsupported_response_type")
	})

	t.Run("missing state", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		u, err := url.Parse(e.demoConfig(redirectV4).AuthCodeURL(""))
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Del("state")
		u.RawQuery = q.Encode()
		errorRedirect(t, e, u.String(), "", "invalid_request")
	})

	t.Run("demo client with PKCE", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		tok := e.login(e.demoConfig(redirectV4, "api.events"))
		if c := jwtClaims(t, tok.AccessToken); c["client_id"] != sandbox.DemoClientID {
			t.Errorf("client_id claim %v", c["client_id"])
		}
	})
}
