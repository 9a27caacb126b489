package api

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ValidationError is a parameter that breaks a rule of the spec; nothing was sent.
//
// Params are checked on the client because the service's 400 costs a round
// trip and names only the first broken rule, while a user fixing a command
// line wants all of them at once. Validate joins one ValidationError per
// broken rule with errors.Join, so errors.As finds the first.
type ValidationError struct {
	Param string // the spec's name of the parameter, e.g. min_strike or fields[2].formula
	Rule  string // what the value must be, e.g. must be <= max_strike
}

func (e *ValidationError) Error() string {
	return "api: invalid parameter " + e.Param + ": " + e.Rule
}

// Ptr returns a pointer to v, for the optional numeric parameters, where nil
// means absent and a pointer to 0 means 0.
func Ptr[T any](v T) *T { return &v }

// maxSymbolLen bounds a symbol; the longest real ones (OSI symbols) have 21
// characters.
const maxSymbolLen = 32

// EarliestDate is the first day the service has data for. A parameter that
// names a day of data (every endpoint's date) or ends a range of days (the
// calendar's end_date) is refused before it: such a request can only come
// back empty, so it is refused (400, free) rather than charged. A range may
// start before it (start_date), since it still reaches the data, and expiry
// filters (expiry, min_expiry, max_expiry) select contracts, not a day.
// This is the one place the bound is written: the sandbox, the command line
// and the date prompt all read it.
const EarliestDate Date = 20030101

// underlyingQuotesFrom is where the underlying quotes' history starts,
// later than EarliestDate.
const underlyingQuotesFrom Date = 20110101

// rules collects the broken rules of one params struct.
type rules struct{ errs []error }

func (r *rules) add(param, format string, args ...any) {
	r.errs = append(r.errs, &ValidationError{Param: param, Rule: fmt.Sprintf(format, args...)})
}

func (r *rules) err() error { return errors.Join(r.errs...) }

// mode checks the path mode; empty means the client's default.
func (r *rules) mode(m Mode) {
	if m != "" && !m.Valid() {
		r.add("{mode}", "must be %q or %q (the path segment), not %q", Live, Delayed, truncate(string(m), 40))
	}
}

// symbol checks a required symbol.
func (r *rules) symbol(param, s string) {
	if s == "" {
		r.add(param, "is required")
		return
	}
	if problem := symbolProblem(s); problem != "" {
		r.add(param, "%q %s", truncate(s, 40), problem)
	}
}

// symbolProblem says what keeps s from being a symbol, or "" if nothing.
// Spaces, commas and control characters are refused above all because they
// would split or corrupt the comma-separated lists and paths the symbol
// travels in.
func symbolProblem(s string) string {
	if s == "" {
		return "is empty"
	}
	if utf8.RuneCountInString(s) > maxSymbolLen {
		return fmt.Sprintf("is longer than %d characters", maxSymbolLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte(".-/^_", c) >= 0
		if !ok {
			return "has a character a symbol cannot hold"
		}
	}
	return ""
}

// symbolOrOSI checks a required symbol that may also be an option's OSI
// symbol, which may come in the OCC layout with spaces in it.
func (r *rules) symbolOrOSI(param, s string) {
	if _, err := ParseOSI(s); err == nil {
		return
	}
	r.symbol(param, s)
}

// osi checks a required OSI option symbol.
func (r *rules) osi(param, s string) {
	if s == "" {
		r.add(param, "is required")
		return
	}
	if _, problem := parseOSI(s); problem != "" {
		r.add(param, "must be an OSI option symbol (root, yymmdd, C or P, strike x 1000 in 8 digits): %q %s", truncate(strings.TrimSpace(s), 40), problem)
	}
}

// wireSymbol is the symbol as sent: an OSI symbol in its canonical form (the
// OCC layout and lower case are normalized), anything else as given.
func wireSymbol(s string) string {
	if o, err := ParseOSI(s); err == nil {
		return o.String()
	}
	return s
}

// root checks an optional option root.
func (r *rules) root(param, s string) {
	if s != "" && !validRoot(asciiUpper(s)) {
		r.add(param, "%q must be 1 to 6 letters or digits", truncate(s, 40))
	}
}

// date checks an optional yyyy-MM-dd date and returns it (0 if absent or
// bad). A date before from (if set) is refused as beyond the service's depth.
func (r *rules) date(param, s string, required bool, from Date) Date {
	if s == "" {
		if required {
			r.add(param, "is required")
		}
		return 0
	}
	d, err := ParseDate(s)
	if err != nil {
		r.add(param, "must be a date of the form yyyy-MM-dd, not %q", truncate(s, 40))
		return 0
	}
	if from != 0 && d < from {
		r.add(param, "must be %s or later: the service has no earlier data", from)
		return 0
	}
	return d
}

// time checks an optional HH:mm:ss.fff time of day; ok is false if absent or bad.
func (r *rules) time(param, s string, required bool) (t TimeOfDay, ok bool) {
	if s == "" {
		if required {
			r.add(param, "is required")
		}
		return 0, false
	}
	if len(s) != 12 || s[8] != '.' {
		r.add(param, "must be a time of the form HH:mm:ss.fff, not %q", truncate(s, 40))
		return 0, false
	}
	t, err := ParseTimeOfDay(s)
	if err != nil {
		r.add(param, "must be a time from 00:00:00.000 to 23:59:59.999 of the form HH:mm:ss.fff, not %q", truncate(s, 40))
		return 0, false
	}
	return t, true
}

// oneOf checks an optional enumerated value; empty means the server default.
func oneOf[T ~string](r *rules, param string, v T, allowed ...T) {
	if v == "" {
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	r.add(param, "must be one of %s, not %q", strings.Join(names, ", "), truncate(string(v), 40))
}

// intRange checks an optional integer against an inclusive range; ok is
// true when it is set and in range, so that pairs compare valid ends only.
func intRange[T int | int64](r *rules, param string, p *T, lo, hi T) (v T, ok bool) {
	if p == nil {
		return 0, false
	}
	if *p < lo || *p > hi {
		r.add(param, "must be from %d to %d, not %d", lo, hi, *p)
		return 0, false
	}
	return *p, true
}

// floatMin checks an optional decimal: finite and at least lo. The upper
// bound of the spec is the maximum double, which every finite value meets.
func (r *rules) floatMin(param string, p *float64, lo float64) (v float64, ok bool) {
	switch {
	case p == nil:
		return 0, false
	case math.IsNaN(*p) || math.IsInf(*p, 0):
		r.add(param, "must be a finite number, not %v", *p)
		return 0, false
	case *p < lo:
		r.add(param, "must be >= %s, not %s", formatFloat(lo), formatFloat(*p))
		return 0, false
	}
	return *p, true
}

// ids checks a list of byte-sized ids (exchange or condition ids).
func (r *rules) ids(param string, ids []int) {
	for i, id := range ids {
		if id < 0 || id > 255 {
			r.add(param, "entry %d must be from 0 to 255, not %d", i+1, id)
		}
	}
}

// inOrder checks a constraint pair min_X <= max_X when both ends are present
// and valid (ok); the error names the min_ side, as the service's 400 does.
func inOrder[T cmp.Ordered](r *rules, minParam, maxParam string, lo, hi T, ok bool) {
	if ok && lo > hi {
		r.add(minParam, "must be <= %s", maxParam)
	}
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Query writers: each writes the parameter only when it is set.

func setString(q url.Values, name, v string) {
	if v != "" {
		q[name] = []string{v}
	}
}

func setInt[T int | int64](q url.Values, name string, p *T) {
	if p != nil {
		q[name] = []string{strconv.FormatInt(int64(*p), 10)}
	}
}

func setFloat(q url.Values, name string, p *float64) {
	if p != nil {
		q[name] = []string{formatFloat(*p)}
	}
}

func setIDs(q url.Values, name string, ids []int) {
	if len(ids) == 0 {
		return
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	q[name] = []string{strings.Join(s, ",")}
}

// parsedDate is the date s holds, or 0 when it is absent or not a date.
func parsedDate(s string) Date {
	d, _ := ParseDate(s)
	return d
}
