package history

import (
	"context"
	"math"

	"chainwatch/api"
)

// Sessions is how many sessions the figures look back over: a year of
// trading days (IV rank and percentile over 252 sessions).
const Sessions = 252

// Past is what the store holds of a symbol before a day: the figures'
// inputs. IV30 is in percentage points, as the service sends it.
type Past struct {
	// IV30 is the IV30 of each stored session of the 251 before the day
	// (the day itself is the current value), oldest first.
	IV30 []float64
	// Closes are the closes of the consecutive sessions that end at the
	// last one stored on or before the day (the day's own close for a
	// past day), oldest first: a gap in the store ends them.
	Closes []float64
	// Through is the session of the last close (0 when none).
	Through api.Date
}

// window is a cached Past: the store reads a symbol's year once per day
// shown, and again only after it stores something of that symbol.
type window struct {
	asOf api.Date
	past Past
}

// Past returns the symbol's stored year before asOf (see Past). Read from
// the database once per symbol and day, then from memory.
func (s *Store) Past(ctx context.Context, symbol string, asOf api.Date) (Past, error) {
	s.mu.Lock()
	w := s.win[symbol]
	s.mu.Unlock()
	if w != nil && w.asOf == asOf {
		return w.past, nil
	}
	p, err := s.readPast(ctx, symbol, asOf)
	if err != nil {
		return p, err
	}
	s.mu.Lock()
	s.win[symbol] = &window{asOf: asOf, past: p}
	s.mu.Unlock()
	return p, nil
}

// forget drops the cached windows of symbols just written.
func (s *Store) forget(symbols []string) {
	s.mu.Lock()
	for _, sym := range symbols {
		delete(s.win, sym)
	}
	s.mu.Unlock()
}

// SessionsBefore returns the n trading sessions before day, oldest first.
func SessionsBefore(day api.Date, n int) []api.Date {
	out := make([]api.Date, n)
	d := day
	for i := n - 1; i >= 0; i-- {
		d = api.PrevTradingDay(d)
		out[i] = d
	}
	return out
}

func (s *Store) readPast(ctx context.Context, symbol string, asOf api.Date) (Past, error) {
	var p Past
	from := SessionsBefore(asOf, Sessions-1)[0]
	rows, err := s.db.QueryContext(ctx, `SELECT day, iv30, close, last FROM quotes
		WHERE service = ? AND symbol = ? AND present = 1 AND day >= ? AND day <= ? ORDER BY day`,
		s.svcID, symbol, int64(from), int64(asOf))
	if err != nil {
		return p, err
	}
	defer rows.Close()
	var days []api.Date
	var closes []float64
	for rows.Next() {
		var day int64
		var iv, cl, last *float64
		if err := rows.Scan(&day, &iv, &cl, &last); err != nil {
			return p, err
		}
		if iv != nil && api.Date(day) < asOf {
			p.IV30 = append(p.IV30, *iv)
		}
		c := math.NaN()
		switch {
		case cl != nil:
			c = *cl
		case last != nil:
			c = *last
		}
		days, closes = append(days, api.Date(day)), append(closes, c)
	}
	if err := rows.Err(); err != nil {
		return p, err
	}
	// The closes of consecutive sessions from the newest stored back.
	i := len(days) - 1
	for i >= 0 && math.IsNaN(closes[i]) {
		i--
	}
	if i < 0 {
		return p, nil
	}
	p.Through = days[i]
	j := i
	for j > 0 && days[j-1] == api.PrevTradingDay(days[j]) && !math.IsNaN(closes[j-1]) && closes[j-1] > 0 {
		j--
	}
	p.Closes = closes[j : i+1]
	return p, nil
}

// Closes returns the stored closes of symbol on the days asked (those
// not stored are left out): the earnings moves' inputs.
func (s *Store) Closes(ctx context.Context, symbol string, days []api.Date) (map[api.Date]float64, error) {
	out := make(map[api.Date]float64, len(days))
	if len(days) == 0 {
		return out, nil
	}
	lo, hi := days[0], days[0]
	for _, d := range days {
		lo, hi = min(lo, d), max(hi, d)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT day, coalesce(close, last) FROM quotes
		WHERE service = ? AND symbol = ? AND present = 1 AND day >= ? AND day <= ?`, s.svcID, symbol, int64(lo), int64(hi))
	if err != nil {
		return out, err
	}
	defer rows.Close()
	want := make(map[api.Date]bool, len(days))
	for _, d := range days {
		want[d] = true
	}
	for rows.Next() {
		var day int64
		var c *float64
		if err := rows.Scan(&day, &c); err != nil {
			return out, err
		}
		if c != nil && want[api.Date(day)] {
			out[api.Date(day)] = *c
		}
	}
	return out, rows.Err()
}

// Series is Past as plain figures (feed's pastReader): the IV30 of the
// sessions before asOf and the consecutive closes up to it.
func (s *Store) Series(ctx context.Context, symbol string, asOf api.Date) (iv30, closes []float64, err error) {
	p, err := s.Past(ctx, symbol, asOf)
	return p.IV30, p.Closes, err
}
