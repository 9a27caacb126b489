package sandbox

import (
	"crypto/subtle"
	_ "embed"
	"html/template"
	"net/http"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

//go:embed templates/login.html
var loginHTML string

var loginPage = template.Must(template.New("login").Parse(loginHTML))

// scopeText says in words what each scope lets the application do.
var scopeText = map[string]string{
	"api.allaccess":    "all market data (api.allaccess)",
	"api.market":       "quotes and option chains (api.market)",
	"api.taq":          "trades and quotes (api.taq)",
	"api.scans.custom": "custom scans (api.scans.custom)",
	"api.events":       "earnings and dividends (api.events)",
	"offline_access":   "staying signed in (offline_access)",
	oidc.ScopeOpenID:   "your user ID (openid)",
	oidc.ScopeProfile:  "your name (profile)",
}

type loginView struct {
	ID, Action, ClientName, Username, Error string
	Scopes                                  []string
	DemoUser, DemoPassword                  string
}

// loginHandler is the login and consent page the authorize endpoint sends
// the browser to. Allow answers 302 to the redirect URI with code and
// state; Deny with error=access_denied and state. The request ID in the form
// is 128 random bits bound to one authorize request, which is what stops a
// forged form post.
func (ts *tokenService) loginHandler() http.Handler {
	withIssuer := op.NewIssuerInterceptor(ts.provider.IssuerFromRequest)
	return withIssuer.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Frame-Options", "DENY") // a consent page must not be clickjacked
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		switch r.Method {
		case http.MethodGet:
			ts.showLogin(w, r.URL.Query().Get("id"), "", DemoUser, http.StatusOK)
		case http.MethodPost:
			ts.postLogin(w, r)
		default:
			h.Set("Allow", "GET, POST")
			plainError(w, http.StatusMethodNotAllowed, "method not allowed")
		}
	})
}

func (ts *tokenService) showLogin(w http.ResponseWriter, id, msg, user string, status int) {
	a, ok := ts.store.authRequestForLogin(id)
	if !ok {
		plainError(w, http.StatusBadRequest, "this login has expired or was already used; start it again from chainwatch")
		return
	}
	c := ts.store.clients[a.clientID]
	v := loginView{
		ID: a.id, Action: authPrefix + "/login", ClientName: c.name, Username: user, Error: msg,
		DemoUser: DemoUser, DemoPassword: DemoPassword,
	}
	for _, sc := range a.scopes {
		if t, ok := scopeText[sc]; ok {
			v.Scopes = append(v.Scopes, t)
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = loginPage.Execute(w, v)
}

func (ts *tokenService) postLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		plainError(w, http.StatusBadRequest, "cannot read the login form")
		return
	}
	id := r.PostForm.Get("id")
	a, ok := ts.store.authRequestForLogin(id)
	if !ok {
		plainError(w, http.StatusBadRequest, "this login has expired or was already used; start it again from chainwatch")
		return
	}
	switch r.PostForm.Get("action") {
	case "deny":
		_ = ts.store.DeleteAuthRequest(r.Context(), id)
		op.AuthRequestError(w, r, a, oidc.ErrAccessDenied().WithDescription("the user denied access"), ts.provider)
	case "accept":
		user, pass := r.PostForm.Get("username"), r.PostForm.Get("password")
		if !checkUser(user, pass) {
			ts.showLogin(w, id, "Wrong user name or password.", user, http.StatusUnauthorized)
			return
		}
		if !ts.store.finishLogin(id, user) {
			plainError(w, http.StatusBadRequest, "this login has expired or was already used; start it again from chainwatch")
			return
		}
		done, err := ts.store.AuthRequestByID(r.Context(), id)
		if err != nil {
			plainError(w, http.StatusBadRequest, "this login has expired; start it again from chainwatch")
			return
		}
		op.AuthResponse(done, ts.provider, w, r)
	default:
		plainError(w, http.StatusBadRequest, "the login form must say allow or deny")
	}
}

// checkUser compares both fields in constant time.
func checkUser(user, pass string) bool {
	u := subtle.ConstantTimeCompare([]byte(user), []byte(DemoUser))
	p := subtle.ConstantTimeCompare([]byte(pass), []byte(DemoPassword))
	return u&p == 1
}
