package sandbox_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"chainwatch/sandbox"
)

func basicAuth(id, secret string) http.Header {
	return http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id)+":"+url.QueryEscape(secret)))}}
}

// TestTokenEndpointHeaders: token answers are never cached (RFC 6749
// 5.1), and a 401 for bad Basic credentials challenges Basic on the
// token, revocation and introspection endpoints (RFC 6749 5.2, 7235).
func TestTokenEndpointHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	good := basicAuth(sandbox.DemoClientID, e.s.DemoSecret)
	resp, body := e.postForm(e.s.AuthURL+"/connect/token", url.Values{"grant_type": {"client_credentials"}}, good)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Pragma") != "no-cache" {
		t.Errorf("token: %d, Cache-Control %q, Pragma %q", resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("Pragma"))
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.Unmarshal([]byte(body), &tok)
	e.secret(tok.AccessToken)
	bad := basicAuth(sandbox.DemoClientID, "wrong")
	for _, c := range []struct {
		path string
		form url.Values
	}{
		{"/connect/token", url.Values{"grant_type": {"client_credentials"}}},
		{"/connect/revocation", url.Values{"token": {"x"}}},
		{"/connect/introspect", url.Values{"token": {"x"}}},
	} {
		resp, _ := e.postForm(e.s.AuthURL+c.path, c.form, bad)
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), `Basic realm="chainwatch sandbox"`) {
			t.Errorf("%s with a bad secret: %d, WWW-Authenticate %q", c.path, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
		if resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q", c.path, resp.Header.Get("Cache-Control"))
		}
	}
}

// TestIntrospectionInactive: revoked, expired and unknown tokens are
// {"active": false} (RFC 7662 2.2); a live one is active.
func TestIntrospectionInactive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	creds := basicAuth(sandbox.DemoClientID, e.s.DemoSecret)
	active := func(token string) bool {
		t.Helper()
		resp, body := e.postForm(e.s.AuthURL+"/connect/introspect", url.Values{"token": {token}}, creds)
		var r map[string]any
		if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &r) != nil {
			t.Fatalf("introspect: %d %q", resp.StatusCode, body)
		}
		if a, ok := r["active"].(bool); !ok || (!a && len(r) != 1) {
			t.Fatalf("introspect answer %q: want active, and nothing else when inactive", body)
		}
		return r["active"].(bool)
	}
	live := e.ccToken(t)
	if !active(live.AccessToken) {
		t.Error("a live token is inactive")
	}
	revoked := e.ccToken(t)
	if status, _ := e.revoke(sandbox.DemoClientID, e.s.DemoSecret, revoked.AccessToken, "access_token"); status != http.StatusOK {
		t.Fatalf("revoke: %d", status)
	}
	if active(revoked.AccessToken) {
		t.Error("a revoked token is active")
	}
	if active("not-a-token") {
		t.Error("an unknown token is active")
	}
	e.clock.Advance(sandbox.DefaultAccessTokenTTL + time.Second)
	if active(live.AccessToken) {
		t.Error("an expired token is active")
	}
}

// TestTokenRequestContentType: a form without a Content-Type is read as
// a form; JSON is refused with invalid_request naming its type.
func TestTokenRequestContentType(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	post := func(ct, body string) (*http.Response, string) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, e.s.AuthURL+"/connect/token", strings.NewReader(body))
		req.Header = basicAuth(sandbox.DemoClientID, e.s.DemoSecret)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		return e.do(req)
	}
	resp, body := post("", "grant_type=client_credentials")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "access_token") {
		t.Errorf("no Content-Type: %d %.80q", resp.StatusCode, body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.Unmarshal([]byte(body), &tok)
	e.secret(tok.AccessToken)
	resp, body = post("application/json", `{"grant_type":"client_credentials"}`)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"invalid_request"`) || !strings.Contains(body, "not application/json") {
		t.Errorf("JSON body: %d %q", resp.StatusCode, body)
	}
}
