package sandbox

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox/faults"
	"chainwatch/sandbox/market"
	"chainwatch/sandbox/quota"
	"chainwatch/sandbox/scan"
	"chainwatch/sandbox/sim"
)

// DefaultPerSecond is the per-client request rate when Config.PerSecond is
// zero: well above what chainwatch's scheduler sends, low enough that a
// runaway loop meets the 429 it would meet in production.
const DefaultPerSecond = 20

// dataService is the state behind the /v1 endpoints: the simulated market,
// the points ledger and what every client is entitled to.
type dataService struct {
	market   *sim.Market
	universe *market.Universe
	ledger   *quota.Ledger
	ent      entitlements
	faults   faults.Config
	now      func() time.Time
	compiler *scan.Compiler // formulas by text: screens re-run the same ones
	bufs     bufPool
	bodies   chainBodies
}

// newDataService applies the data endpoints' defaults to cfg, whose Now is
// already set.
func newDataService(cfg Config) *dataService {
	plan := cfg.Plan
	if plan == (quota.Plan{}) {
		plan, _ = quota.PlanByName("professional")
	}
	perSecond := cfg.PerSecond
	switch {
	case perSecond == 0:
		perSecond = DefaultPerSecond
	case perSecond < 0:
		perSecond = 0 // the ledger's unlimited
	}
	m := cfg.Market
	if m == nil {
		m = sim.New(sim.Config{Now: cfg.Now})
	}
	return &dataService{
		market:   m,
		universe: market.Default(),
		ledger:   quota.NewLedger(quota.Config{Plan: plan, PerSecond: perSecond, Burst: cfg.Burst, Now: cfg.Now}),
		ent:      newEntitlements(cfg.Entitlements),
		faults:   cfg.Faults,
		now:      cfg.Now,
		compiler: scan.NewCompiler(0),
	}
}

// call is one authenticated data request on its way through the pipeline.
type call struct {
	mode   api.Mode
	client string // the ledger's key
	format api.Format
	path   string // the endpoint's name, for messages
}

// ledgerKey is whose points a token spends: the client's for client
// credentials, the user's own account within the client otherwise, so two
// users of one application do not share an allowance.
func ledgerKey(t TokenInfo) string {
	if t.Subject == "" || t.Subject == t.ClientID {
		return t.ClientID
	}
	return t.ClientID + "/" + t.Subject
}

// handlerFunc serves one method of one endpoint.
type handlerFunc func(w http.ResponseWriter, r *http.Request, c *call)

// endpoint is one data path: the scope a token needs (besides
// api.allaccess; "" for any token) and a handler per method.
type endpoint struct {
	name    string
	scopes  map[string]string // method → scope
	methods map[string]handlerFunc
}

// dataRoutes is the /v1 URL space behind RequireToken: every response
// after authentication carries the points headers, and the fault injector,
// when configured, sits right behind authentication so that a token fault
// knows whose token to revoke.
func (s *Server) dataRoutes() http.Handler {
	d := s.data
	mux := http.NewServeMux()
	get := func(name, scope string, h handlerFunc) *endpoint {
		return &endpoint{name: name, scopes: map[string]string{http.MethodGet: scope}, methods: map[string]handlerFunc{http.MethodGet: h}}
	}
	routes := map[string]*endpoint{
		"allaccess/market/option-and-underlying-quotes": get("option-and-underlying-quotes", api.ScopeMarket, d.chain),
		"allaccess/market/underlying-quotes":            get("underlying-quotes", api.ScopeMarket, d.underlyingQuotes),
		"allaccess/time-and-sales/option-trades":        get("option-trades", api.ScopeTAQ, d.optionTrades),
		"allaccess/time-and-sales/trades-and-quotes":    get("trades-and-quotes", api.ScopeTAQ, d.tradesAndQuotes),
		"time-and-sales/option-trades-with-greeks":      get("option-trades-with-greeks", api.ScopeTAQ, d.tradesWithGreeks),
		"allaccess/scans-and-alerts/custom-scanner": {
			name:    "custom-scanner",
			scopes:  map[string]string{http.MethodGet: "", http.MethodPost: api.ScopeCustomScans},
			methods: map[string]handlerFunc{http.MethodGet: d.scannerMetadata, http.MethodPost: d.scan},
		},
		"market/symbols/{symbols}/calendar": get("calendar", api.ScopeEvents, d.calendar),
		"reference/exchanges":               get("reference/exchanges", "", d.exchanges),
		"reference/message-conditions":      get("reference/message-conditions", "", d.messageConditions),
	}
	for path, ep := range routes {
		mux.Handle("/v1/{mode}/"+path, ep)
	}
	mux.HandleFunc("/", notFound)
	withFaults := faults.Middleware(d.faults, s.expireToken)(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t, ok := TokenFrom(r.Context()); ok {
			used, left := d.ledger.Usage(ledgerKey(t))
			setPoints(w.Header(), used, left)
		}
		withFaults.ServeHTTP(w, r)
	})
}

// ServeHTTP runs the checks every endpoint shares, in the order a client
// can fix them: path, method, scope, then the response format.
func (ep *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	mode := api.Mode(r.PathValue("mode"))
	if !mode.Valid() {
		notFound(w, r)
		return
	}
	h, ok := ep.methods[r.Method]
	if !ok {
		allow := make([]string, 0, len(ep.methods))
		for m := range ep.methods {
			allow = append(allow, m)
		}
		slices.Sort(allow)
		w.Header().Set("Allow", strings.Join(allow, ", "))
		plainError(w, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed on "+ep.name+": use "+strings.Join(allow, " or "))
		return
	}
	t, _ := TokenFrom(r.Context())
	if scope := ep.scopes[r.Method]; scope != "" && !t.HasScope(scope) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+scope+`"`)
		plainError(w, http.StatusForbidden, ep.name+" needs a token with the "+scope+" or "+defaultScope+" scope")
		return
	}
	f, ok := negotiate(r.Header.Values("Accept"))
	if !ok {
		plainError(w, http.StatusNotAcceptable, "Accept must allow one of application/json, text/json, application/xml, text/xml")
		return
	}
	h(w, r, &call{mode: mode, client: ledgerKey(t), format: f, path: ep.name})
}

// setPoints writes the conventions' points headers.
func setPoints(h http.Header, used, left int64) {
	h.Set("X-Monthly-Points-Used", strconv.FormatInt(used, 10))
	h.Set("X-Monthly-Points-Left", strconv.FormatInt(left, 10))
}

// expireToken revokes the access token a request carries; the fault
// injector calls it for a token fault, so that the client's retry with the
// same token fails as well and it has to get a new one, as when a token
// really expires or is revoked mid-session.
func (s *Server) expireToken(r *http.Request) {
	if t, ok := TokenFrom(r.Context()); ok {
		s.store.revokeAccess(t.id)
	}
}

// revokeAccess deletes one access token's record: from then on the token
// is refused, whatever its signature and expiry say.
func (s *store) revokeAccess(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.access, id)
}
