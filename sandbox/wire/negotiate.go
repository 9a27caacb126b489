// Package wire is the sandbox's encoding of the api package's types: JSON and
// XML bodies in exactly the shapes the client in chainwatch/api reads (field
// names are the api types' tags, XML roots and items as api/doc.go and the
// spec give them), content negotiation, and the scanner's request bodies.
//
// The encoders are hand-written appenders rather than encoding/json and
// encoding/xml: an SPX chain is 20,000 contracts, built
// and encoded at every tick on two cores (BenchmarkChainBuildAndEncode), of
// which reflection would take most. Each type's field list is written once,
// for both formats (see enc), so the two cannot drift apart; a round-trip
// test decodes every shape back with the standard library and with the
// client itself.
//
// Conventions of both formats: Null values that are not Valid are null in
// JSON and <name i:nil="true"/> in XML; the zero api.Date is null; dates are
// yyyy-MM-dd and times HH:mm:ss.fff; numbers are strconv's shortest 'f' form
// (NaN and infinities, which neither format carries, are null); lists are []
// when empty, never null. XML documents start with the declaration and bind
// i: to the XML Schema instance namespace on the root.
package wire

import (
	"strconv"
	"strings"

	"chainwatch/api"
)

// ContentType returns the Content-Type of a response body in format f.
func ContentType(f api.Format) string {
	if f == api.XML {
		return "application/xml; charset=utf-8"
	}
	return "application/json; charset=utf-8"
}

// offers are the four response media types, in the order that breaks ties:
// JSON first, as the default format.
var offers = [...]offer{
	{"application", "json", api.JSON},
	{"text", "json", api.JSON},
	{"application", "xml", api.XML},
	{"text", "xml", api.XML},
}

// Negotiate picks the response format from an Accept header (several Accept
// lines joined with commas). No header, */* or application/* mean JSON.
//
// Each of the four types gets the q-value of the most specific range that
// matches it (RFC 9110 12.5.1), and the highest q wins; between equal q an
// exact type beats a wildcard (so "application/xml, */*" is XML, the type
// the client named), and then JSON beats XML (so text/* is JSON). q=0
// excludes. false means none of the four is acceptable: 406. A range with a
// malformed q-value is ignored, and a lone "*" is read as */*, as some HTTP
// libraries send it.
func Negotiate(accept string) (api.Format, bool) {
	if strings.TrimSpace(accept) == "" {
		return api.JSON, true
	}
	var q [len(offers)]float64
	spec := [len(offers)]int{-1, -1, -1, -1} // -1 unmatched, 0 */*, 1 type/*, 2 exact
	for part := range strings.SplitSeq(accept, ",") {
		typ, sub, qv, ok := mediaRange(part)
		if !ok {
			continue
		}
		for i, o := range offers {
			if s := o.specificity(typ, sub); s > spec[i] || (s == spec[i] && s >= 0 && qv > q[i]) {
				spec[i], q[i] = s, qv
			}
		}
	}
	best := -1
	for i := range offers {
		if spec[i] < 0 || q[i] <= 0 {
			continue
		}
		if best < 0 || q[i] > q[best] || (q[i] == q[best] && spec[i] > spec[best]) {
			best = i
		}
	}
	if best < 0 {
		return api.JSON, false
	}
	return offers[best].f, true
}

type offer struct {
	typ, sub string
	f        api.Format
}

// specificity is how closely a range typ/sub names o: 2 exactly, 1 by
// its type (type/*), 0 as */*, -1 not at all.
func (o offer) specificity(typ, sub string) int {
	switch {
	case typ == o.typ && sub == o.sub:
		return 2
	case typ == o.typ && sub == "*":
		return 1
	case typ == "*" && sub == "*":
		return 0
	}
	return -1
}

// mediaRange reads one range of an Accept header: its type, subtype and
// q-value; false when it is not one (no "/", a malformed q).
func mediaRange(part string) (typ, sub string, q float64, ok bool) {
	mt, params, _ := strings.Cut(part, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	if mt == "*" {
		mt = "*/*"
	}
	if typ, sub, ok = strings.Cut(mt, "/"); !ok {
		return "", "", 0, false
	}
	q, ok = quality(params)
	return typ, sub, q, ok
}

// quality returns a media range's q parameter (1 when absent); false when it
// is not a number from 0 to 1.
func quality(params string) (float64, bool) {
	for p := range strings.SplitSeq(params, ";") {
		name, value, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || !(q >= 0 && q <= 1) {
			return 0, false
		}
		return q, true
	}
	return 1, true
}

// RequestFormat reads the format of a request body from its Content-Type:
// application/json, text/json, application/xml or text/xml, in any case,
// with parameters. A charset other than UTF-8 (or its subset US-ASCII) is
// refused, since neither decoder reads another; false means 415, and so
// does an empty Content-Type.
func RequestFormat(contentType string) (api.Format, bool) {
	mt, params, _ := strings.Cut(contentType, ";")
	var f api.Format
	switch strings.ToLower(strings.TrimSpace(mt)) {
	case "application/json", "text/json":
		f = api.JSON
	case "application/xml", "text/xml":
		f = api.XML
	default:
		return api.JSON, false
	}
	for p := range strings.SplitSeq(params, ";") {
		name, value, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(name), "charset") {
			continue
		}
		switch strings.ToLower(strings.Trim(strings.TrimSpace(value), `"`)) {
		case "utf-8", "utf8", "us-ascii":
		default:
			return api.JSON, false
		}
	}
	return f, true
}
