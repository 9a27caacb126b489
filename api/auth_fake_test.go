package api

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

const (
	testClientID = "chainwatch-test"
	testSecret   = "s3cret-Value+/=xyz" // has characters that form encoding changes
	testPublicID = "chainwatch-native"
	testRedirect = "http://127.0.0.1:8765/callback"
)

type codeGrant struct{ clientID, redirect, challenge, scope string }

// fakeAuth is a small OAuth server on 127.0.0.1 implementing just what the
// service does: Basic client authentication, single-use codes with PKCE
// S256, and rotating refresh tokens.
type fakeAuth struct {
	t   *testing.T
	srv *httptest.Server

	mu         sync.Mutex
	n          int
	codes      map[string]codeGrant
	refresh    map[string]string // live refresh token -> scope
	issued     []string          // every code and token handed out
	grants     map[string]int    // token requests by grant_type
	authHeader string            // last Authorization header on /connect/token
	lastForm   url.Values        // last /connect/token form
	revoked    []string
	expiresIn  int
	deny       bool // /connect/authorize answers error=access_denied
	noRotate   bool // refresh keeps the refresh token and omits it from the answer
}

func newFakeAuth(t *testing.T) *fakeAuth {
	f := &fakeAuth{t: t, codes: map[string]codeGrant{}, refresh: map[string]string{}, grants: map[string]int{}, expiresIn: 3600}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /connect/authorize", f.authorize)
	mux.HandleFunc("POST /connect/token", f.token)
	mux.HandleFunc("POST /connect/revocation", f.revocation)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// config returns a confidential client's configuration for this server.
func (f *fakeAuth) config() AuthConfig {
	return AuthConfig{AuthURL: f.srv.URL + "/", ClientID: testClientID, ClientSecret: testSecret, RedirectURL: testRedirect, HTTPClient: f.srv.Client()}
}

// newValue returns a fresh code or token and remembers it for assertNoSecrets.
func (f *fakeAuth) newValue(kind string) string {
	f.n++
	v := fmt.Sprintf("%s-%04d-%s", kind, f.n, strings.Repeat("q", 8))
	f.issued = append(f.issued, v)
	return v
}

func (f *fakeAuth) count(grant string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.grants[grant]
}

// last returns the Authorization header and form of the last token request.
func (f *fakeAuth) last() (string, url.Values) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.authHeader, f.lastForm
}

func writeOAuthErr(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

// clientOK authenticates the caller: the confidential client only by Basic
// header (form-encoded per RFC 6749 2.3.1), the public one by client_id in
// the body. It echoes a wrong secret in the description, as careless servers
// do, so that the client's redaction is exercised.
func (f *fakeAuth) clientOK(w http.ResponseWriter, r *http.Request) (string, bool) {
	if r.PostForm.Has("client_secret") {
		writeOAuthErr(w, 400, "invalid_request", "secret must be in the Authorization header")
		return "", false
	}
	if user, pass, ok := r.BasicAuth(); ok {
		id, _ := url.QueryUnescape(user)
		sec, _ := url.QueryUnescape(pass)
		if id != testClientID || sec != testSecret {
			writeOAuthErr(w, 401, "invalid_client", "Client authentication failed for secret "+sec)
			return "", false
		}
		return id, true
	}
	if r.PostForm.Get("client_id") == testPublicID {
		return testPublicID, true
	}
	writeOAuthErr(w, 401, "invalid_client", "Client authentication failed")
	return "", false
}

func (f *fakeAuth) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id := q.Get("client_id")
	if (id != testClientID && id != testPublicID) || q.Get("redirect_uri") != testRedirect || q.Get("response_type") != "code" ||
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" {
		http.Error(w, "bad authorize request", http.StatusBadRequest)
		return
	}
	back := url.Values{"state": {q.Get("state")}}
	f.mu.Lock()
	if f.deny {
		back.Set("error", "access_denied")
	} else {
		code := f.newValue("code")
		f.codes[code] = codeGrant{id, q.Get("redirect_uri"), q.Get("code_challenge"), q.Get("scope")}
		back.Set("code", code)
	}
	f.mu.Unlock()
	http.Redirect(w, r, q.Get("redirect_uri")+"?"+back.Encode(), http.StatusFound)
}

func (f *fakeAuth) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeOAuthErr(w, 400, "invalid_request", "bad form")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.authHeader = r.Header.Get("Authorization")
	f.lastForm = r.PostForm
	grant := r.PostForm.Get("grant_type")
	f.grants[grant]++
	client, ok := f.clientOK(w, r)
	if !ok {
		return
	}
	var scope string
	switch grant {
	case "client_credentials":
		if client != testClientID {
			writeOAuthErr(w, 400, "unauthorized_client", "public clients cannot use client_credentials")
			return
		}
		scope = r.PostForm.Get("scope")
	case "authorization_code":
		code := r.PostForm.Get("code")
		g, ok := f.codes[code]
		delete(f.codes, code) // single use, even when the request fails
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		switch {
		case !ok || g.clientID != client:
			writeOAuthErr(w, 400, "invalid_grant", "unknown or used code")
			return
		case r.PostForm.Get("redirect_uri") != g.redirect:
			writeOAuthErr(w, 400, "invalid_grant", "redirect_uri mismatch")
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
			writeOAuthErr(w, 400, "invalid_grant", "PKCE verification failed")
			return
		}
		scope = g.scope
	case "refresh_token":
		rt := r.PostForm.Get("refresh_token")
		s, ok := f.refresh[rt]
		if !ok {
			writeOAuthErr(w, 400, "invalid_grant", "refresh token "+rt+" is invalid")
			return
		}
		if f.noRotate {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"access_token": f.newValue("access"), "token_type": "Bearer", "expires_in": f.expiresIn})
			return
		}
		delete(f.refresh, rt) // rotation: dead once used
		scope = s
	default:
		writeOAuthErr(w, 400, "unsupported_grant_type", grant)
		return
	}
	resp := map[string]any{"access_token": f.newValue("access"), "token_type": "Bearer", "expires_in": f.expiresIn, "scope": scope}
	if strings.Contains(" "+scope+" ", " offline_access ") {
		rt := f.newValue("refresh")
		f.refresh[rt] = scope
		resp["refresh_token"] = rt
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func (f *fakeAuth) revocation(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeOAuthErr(w, 400, "invalid_request", "bad form")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.clientOK(w, r); !ok {
		return
	}
	tok := r.PostForm.Get("token")
	if tok == "" {
		writeOAuthErr(w, 400, "invalid_request", "token missing")
		return
	}
	delete(f.refresh, tok)
	f.revoked = append(f.revoked, tok)
	w.WriteHeader(http.StatusOK)
}

// assertNoSecrets fails if err's message contains the client secret (plain
// or form-encoded) or any code or token the server issued.
func (f *fakeAuth) assertNoSecrets(t *testing.T, err error, extra ...string) {
	t.Helper()
	if err == nil {
		return
	}
	f.mu.Lock()
	vals := append(append([]string{testSecret, url.QueryEscape(testSecret)}, f.issued...), extra...)
	f.mu.Unlock()
	for _, v := range vals {
		if v != "" && strings.Contains(err.Error(), v) {
			t.Errorf("error %q leaks secret %q", err, v)
		}
	}
}
