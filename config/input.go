package config

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/text"
)

// The rules for what a user types or writes that names market data: a
// symbol and a day. One rule each, for the command line, the config file,
// the prompts and the watchlist, so that what one refuses the others
// refuse too, with the same words. A refused value is never rewritten
// into something else and fetched: the message shows what was typed
// (text.Quote) and why.

// MaxSymbolLen is the longest symbol the service lists.
const MaxSymbolLen = 10

// symbolRule is the rule in words, for messages.
const symbolRule = "A-Z, 0-9, and '.' or '-' between them (BRK.B)"

// ParseSymbol checks s against the service's symbols: 1 to 10 letters and
// digits, with '.' and '-' only between them (share classes such as BRK.B
// or BF-B). Case is folded (spy is SPY); nothing else is changed: a blank,
// a slash or an accented letter is refused, not dropped.
func ParseSymbol(s string) (string, error) {
	if problem := symbolProblem(s); problem != "" {
		return "", fmt.Errorf("symbol %s: %s", text.Quote(s), problem)
	}
	return strings.ToUpper(s), nil
}

// symbolProblem says why s is not a symbol, or "" when it is one.
func symbolProblem(s string) string {
	if s == "" {
		return "empty; a symbol is " + symbolRule
	}
	if n := utf8.RuneCountInString(s); n > MaxSymbolLen {
		return fmt.Sprintf("%d characters; a symbol has at most %d", n, MaxSymbolLen)
	}
	prevJoin := true // at the start a '.' or '-' joins nothing
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			prevJoin = false
		case r == '.' || r == '-':
			if prevJoin {
				return fmt.Sprintf("'%c' must sit between letters or digits; a symbol is %s", r, symbolRule)
			}
			prevJoin = true
		case unicode.IsControl(r):
			return "a control character cannot be in a symbol; a symbol is " + symbolRule
		case r == ' ' || r == '\t':
			return "a blank is not part of a symbol; a symbol is " + symbolRule
		default:
			return fmt.Sprintf("%s cannot be in a symbol; a symbol is %s", text.Quote(string(r)), symbolRule)
		}
	}
	if prevJoin {
		return "ends in '.' or '-'; a symbol is " + symbolRule
	}
	return ""
}

// ParseDate reads a day to show, as yyyy-mm-dd. It returns 0 for today
// (empty, "today" or today's date: the live screen). A day in the future,
// before api.EarliestDate, or without a session is refused before anything is
// asked of the service, which would charge for its 204; a day without a
// session names the trading day before it, the one the user most likely
// wants, or the one after it when the day before is itself refused
// (before api.EarliestDate): a suggestion is always a day ParseDate takes.
func ParseDate(s string, now time.Time) (api.Date, error) {
	today := api.Today(now)
	s = strings.TrimSpace(s)
	if s == "" || s == "today" {
		return 0, nil
	}
	d, err := api.ParseDate(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s is not a date; use yyyy-mm-dd, e.g. %s", text.Quote(s), today)
	case d > today:
		return 0, fmt.Errorf("%s is in the future (today is %s, Eastern)", d, today)
	case d < api.EarliestDate:
		return 0, fmt.Errorf("%s is before the service's option data, which starts on %s", d, api.EarliestDate)
	case !market.IsTradingDay(d):
		if prev := market.PrevTradingDay(d); prev >= api.EarliestDate {
			return 0, fmt.Errorf("%s is %s, not a trading day; try %s %s",
				d, market.ClosedReason(d), prev.Weekday().String()[:3], prev)
		}
		next := market.NextTradingDay(d)
		return 0, fmt.Errorf("%s is %s, not a trading day, and the service's data starts on %s; the first trading day is %s %s",
			d, market.ClosedReason(d), api.EarliestDate, next.Weekday().String()[:3], next)
	case d == today:
		return 0, nil
	}
	return d, nil
}

// NearestSymbol is the symbol in known closest to sym (text.Nearest),
// for "did you mean".
func NearestSymbol(sym string, known []string) string { return text.Nearest(sym, known) }

// NoSuchSymbol is the one wording of a symbol the service does not know,
// on the screen and from every command: "no such symbol: SPYY; did you
// mean SPY?", the suggestion the nearest of known (the user's symbols).
func NoSuchSymbol(sym string, known []string) string {
	s := "no such symbol: " + sym
	if near := NearestSymbol(sym, known); near != "" {
		s += "; did you mean " + near + "?"
	}
	return s
}

// ParseClock reads a time of day as a trader types it, Eastern: HH:MM or
// HH:MM:SS (09:45, 9:45, 15:59:30), for --since and the like. The
// service's own form HH:mm:ss.fff is accepted too.
func ParseClock(s string) (api.TimeOfDay, error) {
	s = strings.TrimSpace(s)
	var h, m, sec, ms int
	var rest string
	n, _ := fmt.Sscanf(s, "%d:%d%s", &h, &m, &rest)
	ok := n >= 2
	if ok && rest != "" {
		ok = false
		if k, _ := fmt.Sscanf(rest, ":%d%s", &sec, &rest); k == 1 {
			ok = true
		} else if k == 2 {
			_, err := fmt.Sscanf(rest, ".%03d", &ms)
			ok = err == nil && len(rest) == 4
		}
	}
	if !ok || h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59 || len(s) > 12 || strings.ContainsAny(s, " +-") {
		return 0, fmt.Errorf("%s is not a time of day: use HH:MM (Eastern), e.g. 09:45 or 15:30", text.Quote(s))
	}
	return api.NewTimeOfDay(h, m, sec, ms), nil
}
