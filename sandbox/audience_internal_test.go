package sandbox

import (
	"net/http"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// TestDataEndpointsCheckAudienceAndType: a token signed with the sandbox's
// own key, live in its records, but naming another audience or typed as
// something other than an access token is refused by the data endpoints
// (401 invalid_token, RFC 9068 section 4); the same token signed again
// unchanged, with this service among several audiences, or typed with
// the media type's long form, is taken. Here, inside the package, because
// only the sandbox holds the key that makes such a token.
func TestDataEndpointsCheckAudienceAndType(t *testing.T) {
	t.Parallel()
	s, err := Start(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cc := clientcredentials.Config{ClientID: DemoClientID, ClientSecret: s.DemoSecret,
		TokenURL: s.AuthURL + "/connect/token", AuthStyle: oauth2.AuthStyleInHeader}
	tok, err := cc.Token(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		typ  string
		aud  any // nil: leave the claim out
		ok   bool
	}{
		{"unchanged", "at+jwt", s.BaseURL, true},
		{"among several audiences", "at+jwt", []any{"https://other.example", s.BaseURL}, true},
		{"typ application/at+jwt", "application/AT+JWT", s.BaseURL, true},
		{"another audience", "at+jwt", "https://other.example", false},
		{"the client as audience", "at+jwt", DemoClientID, false},
		{"the token service as audience", "at+jwt", s.AuthURL, false},
		{"no audience", "at+jwt", nil, false},
		{"typ JWT", "JWT", s.BaseURL, false},
		{"no typ", "", s.BaseURL, false},
	} {
		forged, err := s.resign(tok.AccessToken, c.typ, func(claims map[string]any) bool {
			if c.aud == nil {
				delete(claims, "aud")
			} else {
				claims["aud"] = c.aud
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.BaseURL+"/v1/live/reference/exchanges", nil)
		req.Header.Set("Authorization", "Bearer "+forged)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := http.StatusUnauthorized
		if c.ok {
			want = http.StatusOK
		}
		if resp.StatusCode != want {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, want)
		}
		if !c.ok && resp.Header.Get("WWW-Authenticate") != `Bearer error="invalid_token"` {
			t.Errorf("%s: WWW-Authenticate %q", c.name, resp.Header.Get("WWW-Authenticate"))
		}
	}
}
