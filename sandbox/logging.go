package sandbox

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
)

// The OpenID provider library reports request errors only through the
// process-wide slog.Default, with the request's context, and some of those
// records carry the login's state value and the redirect URL with it. A
// sandbox running inside the TUI must not write to the terminal, and no log
// may hold a state, code or token. So Start installs, once per process, a
// default handler that sends every record made while serving a sandbox
// request to that sandbox's own Logger, stripped of the attributes that can
// hold secrets; any other record goes where it went before.

type loggerKey struct{}

// withLogger tags each request's context with the sandbox that serves it.
func withLogger(l *slog.Logger, next http.Handler) http.Handler {
	installLogRouter()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), loggerKey{}, l)))
	})
}

var installOnce sync.Once

func installLogRouter() {
	installOnce.Do(func() {
		fallback := slog.Default().Handler()
		// slog's built-in default handler writes through the log package,
		// which SetDefault points back at the new handler: keeping it as
		// the fallback would loop. A text handler on stderr prints the same
		// records without the loop.
		if fmt.Sprintf("%T", fallback) == "*slog.defaultHandler" {
			fallback = slog.NewTextHandler(os.Stderr, nil)
		}
		slog.SetDefault(slog.New(&routingHandler{fallback: fallback}))
	})
}

// routingHandler dispatches a record by its context. Records without a
// sandbox go to fallback, the default handler from before installation.
// With and WithGroup calls are kept in order and replayed on whichever
// handler the record goes to (scrubbed, for a sandbox).
type routingHandler struct {
	fallback slog.Handler
	with     []withOp
}

// withOp is one WithAttrs (attrs) or WithGroup (group) call.
type withOp struct {
	group string
	attrs []slog.Attr
}

func target(ctx context.Context) *slog.Logger {
	if ctx == nil {
		return nil
	}
	l, _ := ctx.Value(loggerKey{}).(*slog.Logger)
	return l
}

func (h *routingHandler) Enabled(ctx context.Context, level slog.Level) bool {
	if l := target(ctx); l != nil {
		return l.Handler().Enabled(ctx, level)
	}
	return h.fallback.Enabled(ctx, level)
}

func (h *routingHandler) Handle(ctx context.Context, r slog.Record) error {
	l := target(ctx)
	if l == nil {
		return h.replay(h.fallback, false).Handle(ctx, r)
	}
	clean := slog.NewRecord(r.Time, r.Level, "token service: "+r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		clean.AddAttrs(scrub(a))
		return true
	})
	return h.replay(l.Handler(), true).Handle(ctx, clean)
}

func (h *routingHandler) replay(dst slog.Handler, clean bool) slog.Handler {
	for _, op := range h.with {
		if op.group != "" {
			dst = dst.WithGroup(op.group)
			continue
		}
		attrs := op.attrs
		if clean {
			attrs = make([]slog.Attr, len(op.attrs))
			for i, a := range op.attrs {
				attrs[i] = scrub(a)
			}
		}
		dst = dst.WithAttrs(attrs)
	}
	return dst
}

func (h *routingHandler) push(op withOp) slog.Handler {
	c := *h
	c.with = append(append([]withOp(nil), h.with...), op)
	return &c
}

func (h *routingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.push(withOp{attrs: attrs})
}

func (h *routingHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return h.push(withOp{group: name})
}

// secretKeys are attribute keys whose values can hold a state, code, token,
// verifier or a URL carrying one of them.
var secretKeys = map[string]bool{
	"state": true, "session_state": true, "url": true, "code": true,
	"token": true, "access_token": true, "refresh_token": true, "id_token": true,
	"code_verifier": true, "client_secret": true, "id_token_hint": true,
	"redirect": true, "location": true,
}

// scrub drops secret-bearing values, at any depth of groups and LogValuers.
func scrub(a slog.Attr) slog.Attr {
	if secretKeys[a.Key] {
		return slog.String(a.Key, "[redacted]")
	}
	v := a.Value.Resolve()
	if v.Kind() != slog.KindGroup {
		return slog.Attr{Key: a.Key, Value: v}
	}
	group := v.Group()
	out := make([]slog.Attr, 0, len(group))
	for _, g := range group {
		out = append(out, scrub(g))
	}
	return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
}
