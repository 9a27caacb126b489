package api

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// redactedMark replaces a secret in any text we show or log.
const redactedMark = "[redacted]"

// minSecretLen is the shortest value redact will hide. Shorter values are
// not plausible secrets, and replacing them (say "a" or "at") would shred
// the rest of the message.
const minSecretLen = 4

// redact returns s with every occurrence of each secret replaced by
// "[redacted]". Error strings end up in terminals, logs and bug reports, and
// servers and network libraries happily echo what they were sent, so every
// message that may contain a client secret, an authorization code, a PKCE
// verifier or a token is passed through here before it leaves the package.
//
// Each secret is also hidden in its URL-query-escaped form, since that is how
// it appears in a form body or a URL quoted by net/http. Longer secrets are
// replaced first so that a secret containing another is hidden whole.
func redact(s string, secrets ...string) string {
	var olds []string
	for _, sec := range secrets {
		if len(sec) < minSecretLen {
			continue
		}
		olds = append(olds, sec)
		if esc := url.QueryEscape(sec); esc != sec {
			olds = append(olds, esc)
		}
	}
	if len(olds) == 0 {
		return s
	}
	slices.SortFunc(olds, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	olds = slices.Compact(olds)
	pairs := make([]string, 0, 2*len(olds))
	for _, o := range olds {
		pairs = append(pairs, o, redactedMark)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// maxServerText bounds how much of a server-supplied message we repeat.
const maxServerText = 300

// cleanServerText makes text that came from a server (an error_description,
// say) safe to print in a terminal: control characters, including escape
// sequences that could rewrite the screen, become spaces, and the text is
// cut to a readable length. Secrets are removed separately with redact.
func cleanServerText(s string) string { return cleanText(s, maxServerText) }

// cleanText is cleanServerText with a bound of max bytes, "…" included.
func cleanText(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		const ellipsis = "…"
		cut := max - len(ellipsis)
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + ellipsis
	}
	return s
}

// redactedError carries an error whose message has been redacted. Unwrap
// still exposes the original so callers can test errors.Is(err,
// context.Canceled) and the like; only Error() is shown to users.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactError wraps err as "auth: <op>: <message>" with every secret removed
// from the message.
func redactError(op string, err error, secrets ...string) error {
	return &redactedError{
		msg: "auth: " + op + ": " + redact(err.Error(), secrets...),
		err: err,
	}
}
