package market

import (
	"strconv"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

// row is one line of the security tables (funds.go, stocks.go). The
// tables are written as positional literals so that a symbol reads as one
// line; opts carries what only some symbols need.
type row struct {
	sym, name, sector string
	kind              Kind
	listing           Listing
	price, vol, beta  float64
	yield             float64
	freq              int
	avgVolM           float64  // millions of shares a day
	eps               float64  // annual, on Anchor
	since             api.Date // 0: trading before 2000 (2000-01-03)
	roots             string   // space separated; "" the symbol itself; "-" not optionable
	opts              string   // space separated, see rowOpts
}

// rowOpts are the optional settings of a row:
//
//	fy=N       fiscal year ends in month N (default December)
//	bmo amc dmt  when earnings are reported (default from the listing)
//	track=SYM  the path is SYM's times a fixed ratio (SPY on SPX, GOOG on GOOGL)
//	div=DATE   first regular dividend (default: since listing)
//	f=NAME     the sector factor, when it differs from the sector (underscores for spaces)
//	opt=DATE   first day options were listed (default: two weeks after listing)
//	vix        the close is the S&P 500's 30-day vol level (VIX)
type rowOpts struct {
	fyEnd    time.Month
	when     api.ReportTime
	track    string
	divFrom  api.Date
	factor   string
	optsFrom api.Date
	vix      bool
}

// firstDay is the Since of every security that traded before 2000.
const firstDay api.Date = 20000103

func (r *row) parseOpts() rowOpts {
	o := rowOpts{fyEnd: time.December, factor: r.sector}
	if r.listing == Nasdaq {
		o.when = api.AfterClose
	} else {
		o.when = api.BeforeOpen
	}
	for _, f := range strings.Fields(r.opts) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "fy":
			n, _ := strconv.Atoi(v)
			o.fyEnd = time.Month(n)
		case "bmo":
			o.when = api.BeforeOpen
		case "amc":
			o.when = api.AfterClose
		case "dmt":
			o.when = api.DuringMarket
		case "track":
			o.track = v
		case "div":
			o.divFrom = mustDate(r.sym, v)
		case "f":
			o.factor = strings.ReplaceAll(v, "_", " ")
		case "opt":
			o.optsFrom = mustDate(r.sym, v)
		case "vix":
			o.vix = true
		default:
			panic("market: unknown option " + f + " of " + r.sym)
		}
	}
	return o
}

func mustDate(sym, s string) api.Date {
	n, err := strconv.Atoi(s)
	d := api.Date(n)
	if err != nil || !d.Valid() {
		panic("market: bad date " + s + " of " + sym)
	}
	return d
}

// security builds the exported record of a row.
func (r *row) security() *Security {
	s := &Security{
		Symbol: r.sym, Name: r.name, Sector: r.sector,
		Kind: r.kind, Listing: r.listing,
		Since: r.since, Price: r.price, Vol: r.vol, Beta: r.beta,
		DivYield: r.yield, DivFreq: r.freq,
		AvgVolume: int64(r.avgVolM * 1e6), EPS: r.eps,
	}
	if s.Since == 0 {
		s.Since = firstDay
	}
	switch r.roots {
	case "-":
	case "":
		s.Optionable, s.Roots = true, []string{r.sym}
	default:
		s.Optionable, s.Roots = true, strings.Fields(r.roots)
	}
	if !market.IsTradingDay(s.Since) {
		panic("market: " + r.sym + " since " + s.Since.String() + " is not a trading day")
	}
	return s
}
