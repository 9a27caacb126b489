package sandbox

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// The OpenID library logs through slog.Default with the request context;
// such records must reach the sandbox's own logger, without the values
// that can carry a login's secrets.
func TestLibraryLogsAreRoutedAndScrubbed(t *testing.T) {
	installLogRouter()
	var buf bytes.Buffer
	own := slog.New(slog.NewTextHandler(&buf, nil))
	ctx := context.WithValue(context.Background(), loggerKey{}, own)

	slog.Default().With("client", "chainwatch").WarnContext(ctx, "auth request",
		slog.Group("oidc_error", slog.String("state", "STATE-SECRET"), slog.String("description", "bad scope")),
		slog.String("url", "http://127.0.0.1:1/callback?code=CODE-SECRET&state=STATE-SECRET"),
		slog.Any("auth_request", slog.GroupValue(slog.String("code_verifier", "VERIFIER-SECRET"), slog.String("client_id", "chainwatch"))),
	)
	got := buf.String()
	for _, secret := range []string{"STATE-SECRET", "CODE-SECRET", "VERIFIER-SECRET"} {
		if strings.Contains(got, secret) {
			t.Fatalf("a secret reached the log: %s", got)
		}
	}
	for _, want := range []string{"token service: auth request", "description=\"bad scope\"", "client=chainwatch", "auth_request.client_id=chainwatch", "url=[redacted]"} {
		if !strings.Contains(got, want) {
			t.Fatalf("log line lacks %q: %s", want, got)
		}
	}
}

// With and WithGroup calls keep their order on the sandbox's logger.
func TestLibraryLogsKeepGroups(t *testing.T) {
	installLogRouter()
	var buf bytes.Buffer
	ctx := context.WithValue(context.Background(), loggerKey{}, slog.New(slog.NewTextHandler(&buf, nil)))
	slog.Default().With("client", "x").WithGroup("req").With("state", "STATE-SECRET").InfoContext(ctx, "m", "path", "/p")
	got := buf.String()
	if !strings.Contains(got, "client=x req.state=[redacted] req.path=/p") || strings.Contains(got, "STATE-SECRET") {
		t.Fatalf("log line: %s", got)
	}
}
