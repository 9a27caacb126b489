package sandbox

import (
	"net/http"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
)

// authPrefix is where the token service lives under the server: {auth_url}
// is {base_url}/auth, a different base address than the data endpoints, as
// the spec says of a sandbox deployment.
const authPrefix = "/auth"

// routes is the whole URL space. Every data path (/v1/...) is
// authenticated first, so a client sees the service's 401 rules even on a
// path that does not exist; dataRoutes serves the rest.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(authPrefix+"/login", s.tokens.loginHandler())
	mux.Handle(authPrefix+oidc.DiscoveryEndpoint, s.tokens.discoveryHandler())
	mux.Handle(authPrefix+"/", http.StripPrefix(authPrefix, s.tokens.router))
	mux.Handle(authPrefix+"/connect/token", s.persisting(oauthEndpoint(s.exactExpiresIn(http.StripPrefix(authPrefix, s.tokens.router)))))
	mux.Handle(authPrefix+"/connect/revocation", s.persisting(oauthEndpoint(revocationNeedsToken(http.StripPrefix(authPrefix, s.tokens.router)))))
	mux.Handle(authPrefix+"/connect/introspect", oauthEndpoint(s.introspection()))
	mux.Handle(authPrefix+"/connect/userinfo", s.userinfoAuth(http.StripPrefix(authPrefix, s.tokens.router)))
	mux.Handle("/v1/", s.RequireToken(s.dataRoutes()))
	mux.HandleFunc("/", notFound)
	return s.accessLog(s.serviceDate(withLogger(s.log, mux)))
}

// serviceDate sets every answer's Date header from the sandbox's clock
// (--clock, --speed), not the machine's: a client takes "today" from it
// (service-conventions.md), so a sandbox replaying a past day is that day
// for its clients too. net/http keeps a Date a handler set. It is set as
// the request comes in, for a handler that writes its own answer on the
// hijacked connection (faults' truncate), and again as the answer's header
// goes out (RFC 9110 section 6.6.1: the moment the message is made), for
// one that takes its time (faults' slow, a whole chain).
func (s *Server) serviceDate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", httpDate(s.store.now()))
		next.ServeHTTP(&dateWriter{ResponseWriter: w, now: s.store.now}, r)
	})
}

func httpDate(t time.Time) string { return t.UTC().Format(http.TimeFormat) }

// dateWriter stamps Date when the header is written.
type dateWriter struct {
	http.ResponseWriter
	now     func() time.Time
	stamped bool
}

func (w *dateWriter) WriteHeader(code int) {
	if !w.stamped {
		w.stamped = code >= 200 // an informational header is not the answer
		w.Header().Set("Date", httpDate(w.now()))
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *dateWriter) Write(p []byte) (int, error) {
	if !w.stamped {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

func (w *dateWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// notFound answers an unknown path as the conventions say: 404, plain text.
func notFound(w http.ResponseWriter, r *http.Request) {
	plainError(w, http.StatusNotFound, "unknown path "+r.URL.Path)
}

// plainError writes the service's one-line text/plain error body.
func plainError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}

// statusRecorder remembers the status and size written, for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += n
	return n, err
}

func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// accessLog logs one line per request. It logs the path only: queries carry
// codes, states and sometimes tokens, and a log is no place for them.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		s.log.Info("request",
			"method", r.Method,
			"path", r.URL.Path,
			"status", rec.status,
			"bytes", rec.bytes,
			"duration", time.Since(start).Round(time.Microsecond),
		)
	})
}
