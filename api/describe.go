package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"

	"chainwatch/text"
)

// maxErrText bounds what a message repeats of a server's text: one line of
// a wide terminal.
const maxErrText = 160

// Describe is the one wording of a failed request to the service: what
// failed and what happens next, on one line without control characters.
// It never adds a token or secret: it only repeats error texts this
// package has already redacted. It lives beside the errors it words, so
// that the feed, the scan and the commands take it without importing one
// another.
//
// action names what the request was for when the user asked for it and so
// must ask again ("the scan"); "" is a feed the watch screen polls, which
// retries by itself. Only the words of what happens next differ.
func Describe(err error, action string) string {
	var (
		rl   *RateLimitError
		cut  *CutOffError
		ae   *APIError
		aue  *AuthError
		ue   *url.Error
		ne   net.Error
		oe   *net.OpError
		dnse *net.DNSError
	)
	polled := action == ""
	switch {
	case err == nil:
		return ""
	case errors.As(err, &rl):
		return describeRateLimit(rl, action)
	case errors.As(err, &cut):
		return fmt.Sprintf("the service's answer was cut off (%s of %s); it still cost %d points%s",
			byteSize(cut.Read), byteSize(cut.Want), cut.Cost, next(polled, "; retrying", ""))
	case errors.Is(err, ErrUnauthorized):
		return "the service refused the login: run `chainwatch login` again, or check the client credentials"
	case errors.As(err, &ae):
		msg := OneLine(ae.Message)
		if msg == "" {
			msg = fmt.Sprintf("HTTP %d", ae.StatusCode)
		}
		if ae.StatusCode >= 500 {
			return fmt.Sprintf("the service failed (%d): %s; nothing was charged, %s", ae.StatusCode, msg, next(polled, "retrying", "try again"))
		}
		if ae.Endpoint != "" && polled {
			return fmt.Sprintf("%s answered %d: %s", ae.Endpoint, ae.StatusCode, msg)
		}
		return fmt.Sprintf("the service answered %d: %s", ae.StatusCode, msg)
	case errors.As(err, &aue) && aue.Code == "invalid_grant":
		// The refresh token was refused (expired, revoked, or rotated
		// away): nothing but a new login helps, so say so.
		return "the saved login has expired or was revoked (invalid_grant): run `chainwatch login`"
	case errors.As(err, &aue):
		return "cannot sign in to the service: " + causeFirst(aue.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return "cannot reach the service: no answer in time" + next(polled, "; retrying", "")
	case errors.Is(err, context.Canceled):
		return next(polled, "canceled", action+" was canceled")
	case errors.As(err, &ue):
		return "cannot reach the service: " + causeFirst(ue.Error())
	case errors.As(err, &oe), errors.As(err, &dnse), errors.As(err, &ne):
		return "cannot reach the service: " + causeFirst(err.Error())
	}
	if m := networkText.FindStringSubmatch(err.Error()); m != nil && looksLikeNetwork(m[1]) {
		return "cannot reach the service: " + causeFirst(m[0])
	}
	return OneLine(err.Error())
}

// byteSize is a size as a trader reads it: 812 B, 48 kB, 11.2 MB.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d kB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// OneLine is text.OneLine at the length an error message may have.
func OneLine(s string) string { return text.OneLine(s, maxErrText) }

func next(polled bool, retrying, askAgain string) string {
	if polled {
		return retrying
	}
	return askAgain
}

// describeRateLimit tells the two 429s apart: a per-second limit is a
// moment's wait; a used-up month is the end of spending until it renews.
func describeRateLimit(rl *RateLimitError, action string) string {
	if rl.MonthlyAllowance() {
		if action == "" {
			return "the month's points are used up; polling paused for " + waitText(rl.RetryAfter, "a while") + ": " + OneLine(rl.Message)
		}
		return "the month's points are used up, so " + action + " was not run: " + OneLine(rl.Message)
	}
	if action == "" {
		return "too many requests: retrying in " + waitText(rl.RetryAfter, "a moment")
	}
	return "too many requests: try again in " + waitText(rl.RetryAfter, "a moment")
}

// waitText is a Retry-After in whole seconds, rounded up so that a wait of
// 2.3 s never reads as less than it is; unknown when it is not positive.
func waitText(d time.Duration, unknown string) string {
	if d <= 0 {
		return unknown
	}
	secs := int(math.Ceil(d.Seconds()))
	return (time.Duration(secs) * time.Second).String()
}

// requestURL is how Go's HTTP client names the request in an error:
// `Get "http://host/path?query": `, after the api package's own prefixes
// (`api: GET path: `, `auth: refresh: `), which say nothing to a user.
var requestURL = regexp.MustCompile(`(?:([A-Z][a-z]+) )?"([a-z]+://[^"?]*)[^"]*": `)

// causeFirst reorders a transport error so that what went wrong comes
// first and where last: `Get "http://h:1/v1/x?q": dial tcp h:1: connect:
// connection refused` becomes `connection refused (dial tcp h:1: connect)
// · GET http://h:1/v1/x`. A status bar that cuts the line then still
// shows the cause, and the query string (which may name the symbol and
// date) never lengthens it.
func causeFirst(s string) string {
	s = text.OneLine(s, 0)
	var where string
	if m := requestURL.FindStringSubmatchIndex(s); m != nil {
		if m[2] >= 0 {
			where = strings.ToUpper(s[m[2]:m[3]]) + " "
		}
		where += s[m[4]:m[5]]
		s = s[m[1]:]
	}
	if i := strings.LastIndex(s, ": "); i > 0 {
		s = s[i+2:] + " (" + s[:i] + ")"
	}
	if where != "" {
		s += " · " + where
	}
	return OneLine(s)
}

// networkText is how the api package reports a failed exchange: it flattens
// the transport's error into text (redacted), so the type is gone and only
// the words tell; e.g. `api: POST path: Post "http://...": dial tcp ...`.
var networkText = regexp.MustCompile(`^api: [A-Z]+ \S+: (?:[A-Z][a-z]+ "[^"]*": )?(.*)$`)

// looksLikeNetwork reports whether an error text is a transport failure.
func looksLikeNetwork(s string) bool {
	s = strings.ToLower(s)
	for _, w := range []string{"dial ", "connection refused", "connection reset", "no such host", "i/o timeout",
		"eof", "timeout", "tls:", "network is unreachable", "broken pipe", "server misbehaving"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
