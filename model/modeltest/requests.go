package modeltest

import (
	"context"
	"log/slog"
	"strings"
	"sync"
)

// Requests counts the requests a sandbox served, from its access log (one
// "request" record per request, with its path): what the service saw,
// whatever the client thinks it sent. Set it as sandbox.Config.Logger
// with Logger. Safe for concurrent use.
type Requests struct {
	mu    sync.Mutex
	paths []string
}

// Logger is a logger that counts into r.
func (r *Requests) Logger() *slog.Logger { return slog.New(requestHandler{r}) }

// Count is how many requests had a path ending in suffix
// ("/underlying-quotes", "/calendar").
func (r *Requests) Count(suffix string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, p := range r.paths {
		if strings.HasSuffix(p, suffix) {
			n++
		}
	}
	return n
}

// Paths are the paths served, in order.
func (r *Requests) Paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.paths...)
}

type requestHandler struct{ r *Requests }

func (h requestHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h requestHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h requestHandler) WithGroup(string) slog.Handler            { return h }

func (h requestHandler) Handle(_ context.Context, rec slog.Record) error {
	if rec.Message != "request" {
		return nil
	}
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key == "path" {
			h.r.mu.Lock()
			h.r.paths = append(h.r.paths, a.Value.String())
			h.r.mu.Unlock()
			return false
		}
		return true
	})
	return nil
}
