package sandbox_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestDiscovery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	resp, body := e.get(e.s.AuthURL+"/.well-known/openid-configuration", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("discovery: status %d: %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("discovery Content-Type %q", ct)
	}
	var d struct {
		Issuer                string   `json:"issuer"`
		AuthorizationEndpoint string   `json:"authorization_endpoint"`
		TokenEndpoint         string   `json:"token_endpoint"`
		UserinfoEndpoint      string   `json:"userinfo_endpoint"`
		RevocationEndpoint    string   `json:"revocation_endpoint"`
		JWKSURI               string   `json:"jwks_uri"`
		DeviceEndpoint        string   `json:"device_authorization_endpoint"`
		GrantTypes            []string `json:"grant_types_supported"`
		ResponseTypes         []string `json:"response_types_supported"`
		CodeChallengeMethods  []string `json:"code_challenge_methods_supported"`
		Scopes                []string `json:"scopes_supported"`
		IDTokenAlgs           []string `json:"id_token_signing_alg_values_supported"`
	}
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatalf("discovery body: %v\n%s", err, body)
	}
	if d.Issuer != e.s.AuthURL {
		t.Errorf("issuer %q, want %q", d.Issuer, e.s.AuthURL)
	}
	for _, ep := range []struct{ name, got, path string }{
		{"authorization_endpoint", d.AuthorizationEndpoint, "/connect/authorize"},
		{"token_endpoint", d.TokenEndpoint, "/connect/token"},
		{"userinfo_endpoint", d.UserinfoEndpoint, "/connect/userinfo"},
		{"revocation_endpoint", d.RevocationEndpoint, "/connect/revocation"},
	} {
		if want := e.s.AuthURL + ep.path; ep.got != want {
			t.Errorf("%s %q, want %q", ep.name, ep.got, want)
		}
	}
	if !strings.HasPrefix(d.JWKSURI, e.s.AuthURL+"/") {
		t.Errorf("jwks_uri %q is not under %s", d.JWKSURI, e.s.AuthURL)
	}
	if d.DeviceEndpoint != "" {
		t.Errorf("device_authorization_endpoint %q, want none", d.DeviceEndpoint)
	}
	gt := slices.Clone(d.GrantTypes)
	slices.Sort(gt)
	if want := []string{"authorization_code", "client_credentials", "refresh_token"}; !slices.Equal(gt, want) {
		t.Errorf("grant_types_supported %v, want exactly %v", d.GrantTypes, want)
	}
	if !slices.Equal(d.ResponseTypes, []string{"code"}) {
		t.Errorf("response_types_supported %v, want [code]", d.ResponseTypes)
	}
	if !slices.Contains(d.CodeChallengeMethods, "S256") || slices.Contains(d.CodeChallengeMethods, "plain") {
		t.Errorf("code_challenge_methods_supported %v, want S256 and not plain", d.CodeChallengeMethods)
	}
	for _, sc := range []string{"openid", "offline_access", "api.allaccess", "api.market", "api.taq", "api.scans.custom", "api.events"} {
		if !slices.Contains(d.Scopes, sc) {
			t.Errorf("scopes_supported %v lacks %s", d.Scopes, sc)
		}
	}
	if !slices.Equal(d.IDTokenAlgs, []string{"RS256", "ES256"}) {
		t.Errorf("id_token_signing_alg_values_supported %v, want [RS256 ES256] (RS256, the default, first)", d.IDTokenAlgs)
	}

	resp, body = e.get(d.JWKSURI, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("JWKS: status %d: %s", resp.StatusCode, body)
	}
	var jwks struct {
		Keys []struct {
			Kty, Crv, Alg, Use, Kid, X, Y, N, E, D string
		} `json:"keys"`
	}
	if err := json.Unmarshal([]byte(body), &jwks); err != nil {
		t.Fatalf("JWKS body: %v\n%s", err, body)
	}
	if len(jwks.Keys) != 2 {
		t.Fatalf("JWKS has %d keys, want the RSA and the EC one: %s", len(jwks.Keys), body)
	}
	rsaKey, ecKey := jwks.Keys[0], jwks.Keys[1]
	if rsaKey.Kty != "RSA" || rsaKey.Alg != "RS256" || rsaKey.Use != "sig" || rsaKey.Kid == "" || rsaKey.N == "" || rsaKey.E == "" {
		t.Errorf("JWKS key %+v, want an RS256 signing key with a kid", rsaKey)
	}
	if ecKey.Kty != "EC" || ecKey.Crv != "P-256" || ecKey.Alg != "ES256" || ecKey.Kid == "" || ecKey.X == "" || ecKey.Y == "" {
		t.Errorf("JWKS key %+v, want an ES256 P-256 key with a kid", ecKey)
	}
	if rsaKey.D != "" || ecKey.D != "" {
		t.Errorf("JWKS publishes a private key")
	}

	// The RSA key signs the tokens; access tokens are RFC 9068 JWTs.
	tok := e.ccToken(t)
	hdr := jwtHeader(t, tok.AccessToken)
	if hdr["alg"] != "RS256" || hdr["kid"] != rsaKey.Kid || hdr["typ"] != "at+jwt" {
		t.Errorf("access token header %v, want alg RS256, typ at+jwt and kid %q", hdr, rsaKey.Kid)
	}
	if c := jwtClaims(t, tok.AccessToken); c["scope"] != "api.allaccess" {
		t.Errorf("access token scope claim %v, want api.allaccess", c["scope"])
	}
	e.wantLive(tok.AccessToken)
}
