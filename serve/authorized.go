package serve

import (
	"bytes"
	"fmt"
	"net/netip"
	"path"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// authorizedKey is one key line of the authorized_keys file: its key,
// the name its state is kept under, its options as OpenSSH reads them,
// and why it may not log in at all ("": it may, its options permitting).
type authorizedKey struct {
	line    int
	key     gossh.PublicKey
	fp      string
	comment string
	name    string
	noPty   bool      // no-pty, or restrict without pty after it
	from    []string  // from="...": the patterns the client's address must pass; nil: any
	expiry  time.Time // expiry-time="...": refused from then on; zero: never
	problem string    // an option chainwatch does not honour, or a name another key has
}

// The options of an authorized_keys line that serve honours as OpenSSH
// does, beside from= and expiry-time=: serve offers no port, agent or X11
// forwarding and runs no rc file, so the options that forbid those (and
// the ones that would allow them again) change nothing. Any other option
// (command=, cert-authority, principals=, environment=, tunnel=,
// no-touch-required, verify-required) refuses its line: a key whose
// restriction serve would not enforce must not log in as if it had none.
var mootOptions = map[string]bool{
	"no-port-forwarding": true, "no-agent-forwarding": true, "no-x11-forwarding": true, "no-user-rc": true,
	"port-forwarding": true, "agent-forwarding": true, "x11-forwarding": true, "user-rc": true,
	"permitopen": true, "permitlisten": true,
}

// parseAuthorized reads every key line of an authorized_keys file; a
// line that is not a key (a comment, a blank, a typo) is skipped, as
// sshd skips it. Each key's problem says why it may not log in.
func parseAuthorized(data []byte) []authorizedKey {
	var keys []authorizedKey
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := bytes.TrimSpace(raw)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		pub, comment, opts, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			continue
		}
		k := authorizedKey{line: i + 1, key: pub, fp: gossh.FingerprintSHA256(pub), comment: comment}
		k.name = nameOf(comment, k.fp)
		k.problem = k.options(opts)
		keys = append(keys, k)
	}
	markClashes(keys)
	return keys
}

// options applies a line's options in order (a later one wins, as in
// sshd: "restrict,pty" may open a terminal); the problem of the first
// that cannot be honoured, else "".
func (k *authorizedKey) options(opts []string) string {
	for _, o := range opts {
		name, value, hasValue := strings.Cut(o, "=")
		name = strings.ToLower(name)
		value = unquote(value)
		switch {
		case name == "restrict", name == "no-pty":
			k.noPty = true
		case name == "pty":
			k.noPty = false
		case name == "from" && hasValue:
			k.from = strings.Split(value, ",")
			for _, p := range k.from {
				if err := checkPattern(p); err != nil {
					return fmt.Sprintf("line %d: from=%q: %v", k.line, value, err)
				}
			}
		case name == "expiry-time" && hasValue:
			t, err := parseExpiry(value)
			if err != nil {
				return fmt.Sprintf("line %d: expiry-time=%q: %v", k.line, value, err)
			}
			k.expiry = t
		case mootOptions[name]:
		default:
			return fmt.Sprintf("line %d: the option %s is not supported by chainwatch serve (it honours restrict, no-pty, pty, from= and expiry-time=); remove it, or the line", k.line, name)
		}
	}
	return ""
}

// markClashes refuses keys whose names are another key's: a name is the
// directory of a key's state (positions, rules), so two keys of one name
// would read each other's. Names that differ only in case clash too (a
// case-insensitive disk keeps them in one directory). The same key on
// two lines is one key.
func markClashes(keys []authorizedKey) {
	for i := range keys {
		for j := range i {
			a, b := &keys[j], &keys[i]
			if a.fp == b.fp || !strings.EqualFold(a.name, b.name) {
				continue
			}
			msg := fmt.Sprintf("lines %d (%s) and %d (%s) are both named %s by their comments (%q, %q): give each key a name of its own before its @",
				a.line, a.fp, b.line, b.fp, b.name, a.comment, b.comment)
			for _, k := range []*authorizedKey{a, b} {
				if k.problem == "" {
					k.problem = msg
				}
			}
		}
	}
}

// admits says why the key may not log in from addr at now ("": it may).
func (k *authorizedKey) admits(addr netip.Addr, now time.Time) string {
	if k.problem != "" {
		return k.problem
	}
	if !k.expiry.IsZero() && !now.Before(k.expiry) {
		return fmt.Sprintf("line %d: the key expired at %s (expiry-time)", k.line, k.expiry.Format(time.RFC3339))
	}
	if k.from != nil && !fromMatches(k.from, addr) {
		return fmt.Sprintf("line %d: %s is not in from=%q", k.line, addr, strings.Join(k.from, ","))
	}
	return ""
}

// fromMatches is sshd's from= on an address (serve looks no names up, as
// sshd with its default UseDNS no): a pattern is a CIDR block or a
// wildcard (* and ?); one led by ! that matches refuses, whatever else
// matches; else one that matches admits.
func fromMatches(patterns []string, addr netip.Addr) bool {
	ok := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		var hit bool
		if pre, err := netip.ParsePrefix(p); err == nil {
			hit = pre.Contains(addr)
		} else {
			hit, _ = path.Match(strings.ToLower(p), strings.ToLower(addr.String()))
		}
		switch {
		case hit && neg:
			return false
		case hit:
			ok = true
		}
	}
	return ok
}

// checkPattern refuses a from= pattern that can match nothing as meant:
// empty, a bad CIDR block, or characters path.Match would read as more
// than * and ?.
func checkPattern(p string) error {
	p = strings.TrimPrefix(p, "!")
	switch {
	case p == "":
		return fmt.Errorf("an empty pattern")
	case strings.Contains(p, "/"):
		if _, err := netip.ParsePrefix(p); err != nil {
			return fmt.Errorf("%q is not an address block (%v)", p, err)
		}
	case strings.ContainsAny(p, `[]\`):
		return fmt.Errorf("%q: a pattern has only * and ? for wildcards", p)
	}
	return nil
}

// parseExpiry is sshd's expiry-time: YYYYMMDD, YYYYMMDDHHMM or
// YYYYMMDDHHMMSS, in the server's time zone, or UTC after a Z.
func parseExpiry(s string) (time.Time, error) {
	loc := time.Local
	if z, ok := strings.CutSuffix(s, "Z"); ok {
		s, loc = z, time.UTC
	}
	for _, layout := range []string{"20060102", "200601021504", "20060102150405"} {
		if len(s) == len(layout) {
			if t, err := time.ParseInLocation(layout, s, loc); err == nil {
				return t, nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("want YYYYMMDD[HHMM[SS]], in UTC when followed by Z")
}

// unquote is an option's value without its double quotes, a \" inside
// one being a quote.
func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = strings.ReplaceAll(v[1:len(v)-1], `\"`, `"`)
	}
	return v
}
