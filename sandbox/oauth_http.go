package sandbox

import (
	"encoding/json"
	"mime"
	"net/http"
	"strings"
)

// The token service's HTTP manners, which zitadel/oidc leaves to its host:
// what RFC 6749, 6750 and 7235 ask of the answers, and how a body without
// a Content-Type is read. Every standard client library checks some of
// these; none of them changes what a well-behaved client gets.

// maxFormBody bounds the form of a token, revocation or introspection
// request: a few tokens and names, never near 64 KiB.
const maxFormBody = 64 << 10

// basicRealm names the sandbox in a Basic challenge.
const basicRealm = `Basic realm="chainwatch sandbox", charset="UTF-8"`

// oauthEndpoint wraps the token, revocation and introspection endpoints:
//   - answers carry Cache-Control: no-store and Pragma: no-cache (RFC 6749
//     section 5.1: they hold tokens);
//   - a 401 to a client that sent Basic credentials carries a Basic
//     challenge (RFC 6749 section 5.2, RFC 7235);
//   - a form body holds at most maxFormBody bytes (net/http reads 10 MB);
//   - a form body sent without a Content-Type (some public clients do) is
//     read as the form it is; a JSON body is refused with invalid_request
//     naming its type, instead of a puzzling "grant_type missing".
func oauthEndpoint(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("Pragma", "no-cache")
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, maxFormBody)
			ct := r.Header.Get("Content-Type")
			mt, _, _ := mime.ParseMediaType(ct)
			switch {
			case ct == "":
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			case mt != "application/x-www-form-urlencoded":
				oauthError(w, http.StatusBadRequest, "invalid_request",
					"the body must be application/x-www-form-urlencoded (RFC 6749 section 3.2), not "+strings.TrimSpace(ct))
				return
			}
		}
		if _, _, basic := r.BasicAuth(); basic {
			w = &basicChallenge{ResponseWriter: w}
		}
		next.ServeHTTP(w, r)
	})
}

// basicChallenge adds the Basic challenge to a 401 as it is written.
type basicChallenge struct{ http.ResponseWriter }

func (b *basicChallenge) WriteHeader(code int) {
	if code == http.StatusUnauthorized {
		b.Header().Set("WWW-Authenticate", basicRealm)
	}
	b.ResponseWriter.WriteHeader(code)
}

func (b *basicChallenge) Unwrap() http.ResponseWriter { return b.ResponseWriter }

// oauthError writes an RFC 6749 section 5.2 error.
func oauthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

// bearerChallenge is the WWW-Authenticate of a 401 from a resource (the
// data endpoints, userinfo): RFC 6750 section 3.1 names no error when the
// request carried no token, and invalid_token when it carried a bad one.
//
// The conventions spell the second exactly `Bearer error="invalid_token"`.
func bearerChallenge(r *http.Request, desc string) string {
	if _, sent := r.Header["Authorization"]; !sent {
		return "Bearer"
	}
	c := `Bearer error="invalid_token"`
	if desc != "" {
		c += `, error_description="` + desc + `"`
	}
	return c
}
