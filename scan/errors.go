package scan

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"chainwatch/api"
	"chainwatch/text"
)

// DescribeError is one plain line a trader can act on, and the index
// (into Scan.Fields) of the field it is about, or -1, so the modal can put
// the message on the offending row and `chainwatch scan` can print it.
//
// It turns what the client and the service say (fields[3].formula, HTTP
// statuses, dial errors) into the words of the screen: formulas counted
// from 1, what to do next. It never adds a token or secret: it only
// repeats error texts the api package has already redacted and formulas
// the user wrote.
func DescribeError(err error, s Scan) (msg string, field int) {
	var (
		fe *FormulaError
		ve *api.ValidationError
		ae *api.APIError
	)
	switch {
	case err == nil:
		return "", -1
	case errors.As(err, &fe):
		return fe.Error(), fe.Index
	case errors.Is(err, api.ErrNoData):
		return "no symbol matched the scan", -1
	case errors.As(err, &ve):
		msg, field = describeParam(ve.Param, ve.Rule)
		if n := countJoined(err); n > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", n-1)
		}
		return msg, field
	case errors.As(err, &ae) && !errors.Is(err, api.ErrUnauthorized):
		if msg, field, ok := describeAPIError(ae, s); ok {
			return msg, field
		}
	}
	return api.Describe(err, "the scan"), -1
}

// fieldRef finds the service's and the client's name of a field, as in
// fields[2].formula, and the rest of the parameter after it.
var fieldRef = regexp.MustCompile(`fields\[(\d+)\](?:\.([a-z_]+))?`)

// fieldIndex is the N of the first fields[N] in ref, or -1 when there is
// none or, with n >= 0, when N is not below n (not a field of the scan:
// the message is not about this scan's rows).
func fieldIndex(ref string, n int) int {
	m := fieldRef.FindStringSubmatch(ref)
	if m == nil {
		return -1
	}
	i, err := strconv.Atoi(m[1])
	if err != nil || (n >= 0 && i >= n) {
		return -1
	}
	return i
}

// humanRefs rewrites every fields[N] in a rule as "formula N+1", the name
// the screen uses.
func humanRefs(s string) string {
	return fieldRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := fieldRef.FindStringSubmatch(ref)
		i, _ := strconv.Atoi(m[1])
		return fmt.Sprintf("formula %d", i+1)
	})
}

// describeParam words a broken rule of the request (the client's
// ValidationError, or the same text in a 400).
func describeParam(param, rule string) (string, int) {
	rule = humanRefs(api.OneLine(rule))
	if param == "fields" {
		if strings.HasPrefix(rule, "is required") {
			return "the scan has no formula: add at least one", -1
		}
		return "the scan " + strings.Replace(rule, "entries", "formulas", 1), -1
	}
	i := fieldIndex(param, -1)
	if i < 0 {
		return param + " " + rule, -1
	}
	switch m := fieldRef.FindStringSubmatch(param); m[2] {
	case "display_name":
		return fmt.Sprintf("the name of formula %d %s", i+1, rule), i
	case "sort":
		return fmt.Sprintf("the sort of formula %d %s", i+1, rule), i
	}
	return fmt.Sprintf("formula %d %s", i+1, rule), i
}

// countJoined is how many errors errors.Join put together (1 if not joined).
func countJoined(err error) int {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return len(j.Unwrap())
	}
	return 1
}

// quotedFormula is what the sandbox prints after fields[N].formula: the
// formula in Go quotes, then a colon.
var quotedFormula = regexp.MustCompile(`^fields\[\d+\]\.formula "(?:[^"\\]|\\.)*…?":\s*`)

// describeAPIError words a status. A 400 is the service refusing the
// request: when it names a field (fields[N]) or quotes one of the scan's
// formulas, the message goes on that row.
func describeAPIError(ae *api.APIError, s Scan) (string, int, bool) {
	msg := api.OneLine(ae.Message)
	switch ae.StatusCode {
	case http.StatusBadRequest:
		if i := fieldIndex(msg, len(s.Fields)); i >= 0 {
			if loc := quotedFormula.FindStringIndex(msg); loc != nil {
				rest := msg[loc[1]:]
				return fmt.Sprintf("the service refused formula %d %s: %s", i+1, text.Quote(s.Fields[i].Formula), rest), i, true
			}
			if m := fieldRef.FindStringSubmatchIndex(msg); m != nil && m[0] == 0 {
				text, _ := describeParam(msg[m[0]:m[1]], strings.TrimSpace(msg[m[1]:]))
				return "the service refused " + text, i, true
			}
			return "the service refused the scan: " + humanRefs(msg), i, true
		}
		if i := quotedIndex(msg, s); i >= 0 {
			return fmt.Sprintf("the service refused formula %d: %s", i+1, msg), i, true
		}
		return "the service refused the scan: " + humanRefs(msg), -1, true
	case http.StatusForbidden:
		return "the service refused the scan: this login may not use the custom scanner (scope api.scans.custom): " + msg, -1, true
	case http.StatusNotFound:
		return "the service has no custom scanner at this address (404): check the base URL", -1, true
	}
	return "", -1, false // not the scan's own: feed words it
}

// quotedIndex is the field whose formula the message quotes, longest
// formula first so that "iv30 > 4" is not taken for "iv30 > 40"; -1 if none.
func quotedIndex(msg string, s Scan) int {
	best, bestLen := -1, 0
	for i, f := range s.Fields {
		src := strings.TrimSpace(f.Formula)
		if src == "" || len(src) <= bestLen {
			continue
		}
		for _, q := range []string{strconv.Quote(src), `'` + src + `'`, "`" + src + "`", `"` + src + `"`} {
			if strings.Contains(msg, q) {
				best, bestLen = i, len(src)
				break
			}
		}
	}
	return best
}
