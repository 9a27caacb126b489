package model

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
	"unicode"

	"chainwatch/api"
	"chainwatch/ui"
)

// staleAfter is how many steady intervals may pass without a good chain
// before the header calls the data stale.
const staleAfter = 3

// headerData is the chain's quote plus what only the root knows: where
// the data comes from, in which mode, and how old it is.
func (a *App) headerData(now time.Time) ui.HeaderData {
	h := a.chain.Header()
	h.Source = a.cfg.Source
	h.Mode = a.q.Mode
	h.Date = a.q.Day(now)
	h.Historical = a.q.Historical(now)
	last := a.chain.LastOK()
	h.Loading = a.chain.Loading()
	if !last.IsZero() {
		h.Age = max(now.Sub(last), 0)
	}
	err, at := a.chain.Err()
	switch {
	case h.Loading:
	case err != nil && at.After(last):
		h.Stale = true
	case sessionLive(now, a.q.Mode) && !h.Historical:
		limit := staleAfter*a.poll.sched.Interval(FeedChain, a.poll.cond, now) + 5*time.Second
		h.Stale = h.Age > limit
	}
	return h
}

// statusLine is the prompt while one is open, else the points and timers.
func (a *App) statusLine(width int, now time.Time) string {
	st := a.sh.Styles
	if p := a.prompt; p != nil {
		return ui.Prompt(p.label, p.value, p.sugg, p.sel, p.errMsg, width, st)
	}
	s := a.poll.sched.Stats(now)
	d := ui.StatusData{
		Spent: s.SessionSpent, HourlyRate: s.HourlyRate, BudgetPerHour: s.BudgetPerHour,
		PointsLeft: -1,
		Hint:       a.hint(),
	}
	if v, ok := s.PointsLeft.Get(); ok {
		d.PointsLeft = v
	}
	var next time.Time
	for f := Feed(0); f < NumFeeds; f++ {
		if due := a.poll.due[f]; !due.IsZero() && (next.IsZero() || due.Before(next)) {
			next, d.NextFeed = due, f.String()
		}
	}
	if !next.IsZero() {
		d.Next = max(next.Sub(now), 0)
	}
	if err, at := a.lastErr(); err != nil {
		d.Err, d.ErrAge = errText(err), now.Sub(at)
	} else if a.notice != "" {
		d.Err = a.notice
	}
	return ui.Status(&d, width, st)
}

// lastErr is the newest failure among the panes that has not been
// followed by a success of the same pane: an error the screen has
// recovered from is no longer news.
func (a *App) lastErr() (error, time.Time) {
	var err error
	var at time.Time
	for _, p := range []interface{ Err() (error, time.Time) }{a.chain, a.tape, a.cal} {
		if e, t := p.Err(); e != nil && !api.IsNoData(e) && t.After(at) {
			err, at = e, t
		}
	}
	return err, at
}

// hint is the status bar's reminder of the keys a newcomer needs first.
// Under the scanner modal, letters are typed into its form, so the hint
// says how to leave it instead.
func (a *App) hint() string {
	k := a.sh.Keys
	if a.scan.IsOpen() {
		return k.Close.Help().Key + " close scanner  " + k.Interrupt.Help().Key + " quit"
	}
	return k.Symbol.Help().Key + " symbol  " + k.Scanner.Help().Key + " scan  " + k.Help.Help().Key + " help  " + k.Quit.Help().Key + " quit"
}

// errText says what went wrong in the words a trader needs: what failed
// and what happens next. api errors never hold a secret.
func errText(err error) string {
	var rl *api.RateLimitError
	var ae *api.APIError
	var ne net.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &rl) && rl.MonthlyAllowance():
		return "monthly points used up; polling paused until " + retryIn(rl.RetryAfter)
	case errors.As(err, &rl):
		return "rate limited by the service; retrying in " + retryIn(rl.RetryAfter)
	case errors.Is(err, api.ErrUnauthorized):
		return "the service refused the sign-in; run `chainwatch login` again"
	case errors.As(err, &ae):
		msg := ae.Message
		if msg == "" {
			msg = fmt.Sprintf("HTTP %d", ae.StatusCode)
		}
		return fmt.Sprintf("%s: %s", ae.Endpoint, oneLine(msg))
	case errors.Is(err, context.DeadlineExceeded):
		return "the service did not answer in time; retrying"
	case errors.As(err, &ne):
		return "network: " + oneLine(err.Error())
	}
	return oneLine(err.Error())
}

func retryIn(d time.Duration) string {
	if d <= 0 {
		return "shortly"
	}
	return d.Round(time.Second).String()
}

// oneLine is the first line of s with control characters (escape
// sequences in a server's error body included) dropped, at most 160
// characters: an error must never drive the terminal.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return s
}
