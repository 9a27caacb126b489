package sandbox_test

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/pkg/client/rp"
	"github.com/zitadel/oidc/v3/pkg/client/rs"
	"github.com/zitadel/oidc/v3/pkg/oidc"

	"chainwatch/sandbox"
)

// introspectAs asks about token with zitadel's resource-server client,
// which finds the endpoint by discovery and authenticates with Basic.
func (e *env) introspectAs(id, secret, token string) (*oidc.IntrospectionResponse, error) {
	e.t.Helper()
	server, err := rs.NewResourceServerClientCredentials(e.t.Context(), e.s.AuthURL, id, secret,
		rs.WithClient(&http.Client{Transport: e.tr, Timeout: 10 * time.Second}))
	if err != nil {
		e.t.Fatalf("resource server from discovery: %v", err)
	}
	return rs.Introspect[*oidc.IntrospectionResponse](e.t.Context(), server, token)
}

// introspect asks about token as the demo client (a resource server).
func (e *env) introspect(token string) *oidc.IntrospectionResponse {
	e.t.Helper()
	got, err := e.introspectAs(sandbox.DemoClientID, e.s.DemoSecret, token)
	if err != nil {
		e.t.Fatalf("introspect: %v", err)
	}
	return got
}

// wantOAuthJSON checks an error answer of the token service as RFC 6749
// section 5.2 has it: the status, JSON with the error code, no-store, a
// Basic challenge on a 401, and no secret in the body.
func (e *env) wantOAuthJSON(what string, resp *http.Response, body string, status int, code string) {
	e.t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		e.t.Errorf("%s: body %q is not JSON: %v", what, body, err)
	}
	if ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); resp.StatusCode != status || ct != "application/json" || m["error"] != code {
		e.t.Errorf("%s: %d %q %q, want %d application/json with error %s", what, resp.StatusCode, resp.Header.Get("Content-Type"), body, status, code)
	}
	if desc, _ := m["error_description"].(string); desc == "" {
		e.t.Errorf("%s: no error_description in %q", what, body)
	}
	if resp.Header.Get("Cache-Control") != "no-store" {
		e.t.Errorf("%s: Cache-Control %q", what, resp.Header.Get("Cache-Control"))
	}
	if status == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic ") {
		e.t.Errorf("%s: 401 with WWW-Authenticate %q, want a Basic challenge", what, resp.Header.Get("WWW-Authenticate"))
	}
	e.noSecrets(what+" body", body)
}

// TestIntrospectionErrorsAreJSON: every refusal of the introspection
// endpoint is an RFC 6749 section 5.2 error in JSON (RFC 7662 section
// 2.3), as the revocation endpoint's are: a caller that is not an
// authenticated client is invalid_client (401), a request without a token
// invalid_request (400). zitadel's resource-server client reads the error
// as an *oidc.Error. A good request still answers active or not.
func TestIntrospectionErrorsAreJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.ccToken(t).AccessToken
	endpoint := e.s.AuthURL + "/connect/introspect"
	good := basicAuth(sandbox.DemoClientID, e.s.DemoSecret)
	wrong := "wrong-" + e.s.DemoSecret
	e.secret(wrong)
	for _, c := range []struct {
		name   string
		form   url.Values
		header http.Header
		query  string
		status int
		code   string
	}{
		{"no client authentication", url.Values{"token": {tok}}, nil, "", 401, "invalid_client"},
		{"a wrong secret", url.Values{"token": {tok}}, basicAuth(sandbox.DemoClientID, wrong), "", 401, "invalid_client"},
		{"an unknown client", url.Values{"token": {tok}}, basicAuth("nobody", wrong), "", 401, "invalid_client"},
		{"the public client", url.Values{"token": {tok}, "client_id": {sandbox.NativeClientID}}, nil, "", 401, "invalid_client"},
		{"the secret in the body", url.Values{"token": {tok}, "client_id": {sandbox.DemoClientID}, "client_secret": {e.s.DemoSecret}}, nil, "", 401, "invalid_client"},
		{"no token", url.Values{}, good, "", 400, "invalid_request"},
		{"an empty token", url.Values{"token": {""}}, good, "", 400, "invalid_request"},
		{"the token in the query", url.Values{}, good, "?token=" + url.QueryEscape(tok), 400, "invalid_request"},
		{"a body over 64 KiB", url.Values{"token": {strings.Repeat("a", 70<<10)}}, good, "", 400, "invalid_request"},
	} {
		resp, body := e.postForm(endpoint+c.query, c.form, c.header)
		e.wantOAuthJSON(c.name, resp, body, c.status, c.code)
	}
	resp, body := e.get(endpoint+"?token="+url.QueryEscape(tok), good)
	e.wantOAuthJSON("GET", resp, body, http.StatusMethodNotAllowed, "invalid_request")
	if resp.Header.Get("Allow") != http.MethodPost {
		t.Errorf("GET: Allow %q", resp.Header.Get("Allow"))
	}

	_, err := e.introspectAs(sandbox.DemoClientID, wrong, tok)
	var oe *oidc.Error
	if !errors.As(err, &oe) || oe.ErrorType != oidc.InvalidClient {
		t.Errorf("zitadel's rs client with a wrong secret: %v (%T), want an *oidc.Error invalid_client", err, err)
	}
	if err != nil {
		e.noSecrets("rs client error", err.Error())
	}
	if got := e.introspect(tok); !got.Active || got.ClientID != sandbox.DemoClientID || got.TokenType != "Bearer" ||
		got.Issuer != e.s.AuthURL || !slices.Equal([]string(got.Scope), []string{"api.allaccess"}) {
		t.Errorf("a live token: %+v", got)
	}
}

// TestRevocationWithoutToken: RFC 7009 section 2.1 makes token required;
// a request without one is malformed, 400 invalid_request in JSON (it was
// 200, as for an unknown token), from a confidential or a public client,
// and revokes nothing. zitadel's relying party sees the refusal.
func TestRevocationWithoutToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cc := e.ccToken(t)
	user := e.login(e.nativeConfig(redirectV4, "offline_access"))
	endpoint := e.s.AuthURL + "/connect/revocation"
	good := basicAuth(sandbox.DemoClientID, e.s.DemoSecret)
	for _, c := range []struct {
		name   string
		form   url.Values
		header http.Header
		query  string
	}{
		{"confidential client", url.Values{}, good, ""},
		{"confidential client, a hint alone", url.Values{"token_type_hint": {"refresh_token"}}, good, ""},
		{"public client", url.Values{"client_id": {sandbox.NativeClientID}}, nil, ""},
		{"an empty token", url.Values{"token": {""}, "client_id": {sandbox.NativeClientID}}, nil, ""},
		{"the token in the query", url.Values{"client_id": {sandbox.NativeClientID}}, nil, "?token=" + url.QueryEscape(user.RefreshToken)},
	} {
		resp, body := e.postForm(endpoint+c.query, c.form, c.header)
		e.wantOAuthJSON(c.name, resp, body, http.StatusBadRequest, "invalid_request")
	}
	party, err := rp.NewRelyingPartyOIDC(t.Context(), e.s.AuthURL, sandbox.DemoClientID, e.s.DemoSecret, redirectV4, nil,
		rp.WithHTTPClient(&http.Client{Transport: e.tr, Timeout: 10 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	if err := rp.RevokeToken(t.Context(), party, "", ""); err == nil || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "invalid_request") {
		t.Errorf("zitadel's relying party revoking no token: %v", err)
	}
	e.wantLive(cc.AccessToken)
	e.wantLive(user.AccessToken)
	if _, err := e.refresh(e.nativeConfig(redirectV4), user.RefreshToken); err != nil {
		t.Errorf("the refresh token after the refused revocations: %v", err)
	}
	// A revocation with a token is as before: 200, the token gone.
	if err := rp.RevokeToken(t.Context(), party, cc.AccessToken, "access_token"); err != nil {
		t.Errorf("revoking a token: %v", err)
	}
	e.wantDead(cc.AccessToken)
}
