package api

import (
	"math"
	"net/http"
	"strconv"
	"strings"
)

// Endpoint names a priced operation of the service.
type Endpoint int

// The service's operations. The scanner is two: its price depends on
// all_results.
const (
	EndpointOptionQuotes Endpoint = iota + 1
	EndpointUnderlyingQuotes
	EndpointOptionTrades
	EndpointTradesAndQuotes
	EndpointTradesWithGreeks
	EndpointScan
	EndpointScanAllResults
	EndpointScannerMetadata
	EndpointCalendar
	EndpointExchanges
	EndpointMessageConditions
)

var endpointNames = map[Endpoint]string{
	EndpointOptionQuotes:      "option-and-underlying-quotes",
	EndpointUnderlyingQuotes:  "underlying-quotes",
	EndpointOptionTrades:      "option-trades",
	EndpointTradesAndQuotes:   "trades-and-quotes",
	EndpointTradesWithGreeks:  "option-trades-with-greeks",
	EndpointScan:              "custom-scanner",
	EndpointScanAllResults:    "custom-scanner (all results)",
	EndpointScannerMetadata:   "custom-scanner metadata",
	EndpointCalendar:          "calendar",
	EndpointExchanges:         "reference/exchanges",
	EndpointMessageConditions: "reference/message-conditions",
}

func (e Endpoint) String() string {
	if n, ok := endpointNames[e]; ok {
		return n
	}
	return "endpoint(" + strconv.Itoa(int(e)) + ")"
}

// costs is the spec's table plus the conventions' decisions where it says
// "not shown": trades-with-greeks as option-trades, calendar 15 in every
// mode, reference endpoints and scanner metadata free. The scanner has no
// date, so it is never historical.
var costs = map[Endpoint][3]int{ // live, delayed, historical
	EndpointOptionQuotes:     {4, 8, 3},
	EndpointUnderlyingQuotes: {4, 8, 3},
	EndpointOptionTrades:     {15, 30, 15},
	EndpointTradesAndQuotes:  {15, 30, 15},
	EndpointTradesWithGreeks: {15, 30, 15},
	EndpointScan:             {30, 50, 30},
	EndpointScanAllResults:   {150, 250, 150},
	EndpointCalendar:         {15, 15, 15},
}

// Cost returns the points a successful (200 or 204) request costs. Errors
// (400, 401, 404, 406, 415, 429) cost nothing.
func Cost(e Endpoint, m Mode, historical bool) int {
	c := costs[e]
	switch {
	case historical && e != EndpointScan && e != EndpointScanAllResults:
		return c[2]
	case m == Delayed:
		return c[1]
	}
	return c[0]
}

// Response describes the HTTP exchange behind a result.
type Response struct {
	StatusCode int
	Endpoint   Endpoint
	Mode       Mode
	Historical bool
	// Cost is the points this request was charged by the cost table: the
	// price for 200 and 204, zero otherwise.
	Cost int
	// PointsUsed and PointsLeft are X-Monthly-Points-Used and -Left after
	// this request; null when the service did not send them (unknown, not
	// zero).
	PointsUsed Int
	PointsLeft Int
	// FromHistory: the answer came from the local store of past days
	// (WithHistory): nothing was sent and Cost is 0.
	FromHistory bool
	// FromRecording: the answer came from the flight recorder (WithReplay):
	// nothing was sent and Cost is 0.
	FromRecording bool
	// Attempts counts the HTTP requests made, retries included.
	Attempts int
	Header   http.Header
}

// readPoints fills PointsUsed and PointsLeft from the headers.
func (r *Response) readPoints(h http.Header) {
	r.PointsUsed = headerInt(h, "X-Monthly-Points-Used")
	r.PointsLeft = headerInt(h, "X-Monthly-Points-Left")
}

func headerInt(h http.Header, name string) Int {
	v := strings.TrimSpace(h.Get(name))
	if v == "" {
		return Int{}
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return Some(n)
	}
	// A service that writes 1234.0 is still understood; NaN, infinities and
	// values past int64 are garbage, so unknown.
	if f, err := strconv.ParseFloat(v, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<62 {
		return Some(int64(f))
	}
	return Int{}
}
