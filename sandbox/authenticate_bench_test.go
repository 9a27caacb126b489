package sandbox_test

import (
	"net/http"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"chainwatch/sandbox"
)

// BenchmarkAuthenticate is what every data request will pay to check its
// bearer token in process: the ES256 signature, the issuer, and the lookup
// that makes revocation immediate.
func BenchmarkAuthenticate(b *testing.B) {
	s, err := sandbox.Start(sandbox.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	cc := clientcredentials.Config{ClientID: sandbox.DemoClientID, ClientSecret: s.DemoSecret,
		TokenURL: s.AuthURL + "/connect/token", AuthStyle: oauth2.AuthStyleInHeader}
	tok, err := cc.Token(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, s.BaseURL+"/v1/live/x", nil)
	tok.SetAuthHeader(req)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Authenticate(req); err != nil {
			b.Fatal(err)
		}
	}
}
