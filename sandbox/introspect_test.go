package sandbox_test

import (
	"net/http"
	"time"

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
