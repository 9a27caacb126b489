package watch

import (
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
)

// Looking up a symbol the session does not know: a typo must not blank a
// screen the trader was reading. The new symbol's chain alone is asked
// for (the monitor probes it, as it would on the screen) while the ladder,
// the tape and the calendar stay on the symbol they show. The service's
// first answer decides: a chain moves the screen to the symbol, with that
// answer as its first; nothing (204) leaves the screen where it is and
// the root says there is no such symbol; a failure says so and waits for
// the monitor's next try.

// lookUp starts looking q's symbol up; q becomes the query, with the next
// generation, once the service answers for it.
func (s *state) lookUp(q feed.Query) common.Action {
	q.Gen = s.q.Gen + 1
	s.lookingUp = &q
	return common.Notice{Text: "looking up " + q.Symbol + "…; " + s.q.Symbol + " stays until the service answers", Info: true}
}

// lookUpWant is the chain of the symbol being looked up, shown or not:
// the lookup must finish even under another page.
func (s *state) lookUpWant() []feed.Want {
	if s.lookingUp == nil {
		return nil
	}
	return []feed.Want{{Feed: feed.FeedChain, Query: *s.lookingUp}}
}

// lookedUp settles the lookup with m when m answers it.
func (s *state) lookedUp(m feed.ChainMsg) (common.Action, bool) {
	q := s.lookingUp
	if q == nil || m.Query != *q {
		return nil, false
	}
	switch {
	case m.Err != nil && !api.IsNoData(m.Err):
		return common.Notice{Text: q.Symbol + " not looked up yet: " + api.OneLine(m.Err.Error()) + "; still on " + s.q.Symbol}, true
	case m.Chain == nil:
		s.lookingUp = nil
		return common.NoSuchSymbol{Symbol: q.Symbol}, true
	}
	return common.ChangeQuery{Query: *q, Msg: m}, true
}
