package history

import (
	"slices"

	"chainwatch/api"
)

// Answers kept unsaved (saving.go) answer reads as the store would: a
// past day asked again while its answer waits to be saved is not bought
// again. The figures (Stats, Closes) do not see them until they are saved.

// answerRow is a kept answer: its body deflated, as the store holds it.
type answerRow struct {
	key    string
	day    api.Date
	packed []byte
	size   int
}

// quotesRow is a kept day of underlying quotes: every symbol asked, the
// elements of those the service had.
type quotesRow struct {
	day   api.Date
	asked []string
	by    map[string]api.Symbol // a copy: the caller's slice is not held
}

// keptAnswer is the newest kept answer to key.
func (s *Store) keptAnswer(key string) (*answerRow, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.st.kept) - 1; i >= 0; i-- {
		if a := s.st.kept[i].answer; a != nil && a.key == key {
			return a, true
		}
	}
	return nil, false
}

// keptQuotes adds to found what the kept days of quotes hold of symbols
// on day (nil for a symbol asked and absent), the newest first.
func (s *Store) keptQuotes(day api.Date, symbols []string, found map[string]*api.Symbol) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.st.kept) - 1; i >= 0; i-- {
		q := s.st.kept[i].quotes
		if q == nil || q.day != day {
			continue
		}
		for _, sym := range symbols {
			if _, done := found[sym]; done {
				continue
			}
			if !slices.Contains(q.asked, sym) {
				continue
			}
			if el, ok := q.by[sym]; ok {
				found[sym] = &el
			} else {
				found[sym] = nil
			}
		}
	}
}

// Kept is how many answers wait to be saved.
func (s *Store) Kept() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.st.kept)
}
