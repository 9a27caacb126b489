package history

import (
	"context"
	"database/sql"
	"strings"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/vol"
)

// Sessions is how many sessions the figures look back over: a year of
// trading days (IV rank and percentile over 252 sessions).
const Sessions = 252

// hvCloses is how many closes the longest realized vol (HV30) needs.
const hvCloses = 31

// SessionsBefore returns the n trading sessions before day, oldest first.
func SessionsBefore(day api.Date, n int) []api.Date {
	out := make([]api.Date, n)
	d := day
	for i := n - 1; i >= 0; i-- {
		d = market.PrevTradingDay(d)
		out[i] = d
	}
	return out
}

// Stats returns, for each symbol of cur (its IV30 on asOf, percentage
// points), what the figures need of its stored year (vol.PastStats): the
// low, high, count and count below cur of the IV30 of the 251 sessions
// before asOf, and the closes of the consecutive sessions up to the last
// one stored on or before asOf (at most 31, for HV30).
//
// SQLite does the counting: stepping over rows inside it is far cheaper
// than handing each row to Go through database/sql (BenchmarkFigures50),
// so only the last 31 closes of each symbol come out row by row. A symbol with nothing stored is left
// out.
func (s *Store) Stats(ctx context.Context, asOf api.Date, cur map[string]float64) (map[string]vol.PastStats, error) {
	out := make(map[string]vol.PastStats, len(cur))
	if len(cur) == 0 {
		return out, nil
	}
	syms := make([]string, 0, len(cur))
	vals := make([]string, 0, len(cur))
	args := []any{}
	for sym, v := range cur {
		syms = append(syms, sym)
		vals = append(vals, "(?,?)")
		args = append(args, sym, v)
	}
	from := SessionsBefore(asOf, Sessions-1)[0]
	args = append(args, s.id(), int64(from), int64(asOf))
	rows, err := s.query(ctx, `WITH cur(sym, v) AS (VALUES `+strings.Join(vals, ",")+`)
		SELECT cur.sym, count(s.iv30), min(s.iv30), max(s.iv30), coalesce(sum(s.iv30 < cur.v), 0)
		FROM cur JOIN series s ON s.symbol = cur.sym
		WHERE s.service = ? AND s.day >= ? AND s.day < ? GROUP BY cur.sym`, args...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var sym string
		var st vol.PastStats
		var lo, hi sql.NullFloat64
		if err := rows.Scan(&sym, &st.N, &lo, &hi, &st.Below); err != nil {
			rows.Close()
			return nil, err
		}
		st.Lo, st.Hi = lo.Float64, hi.Float64
		out[sym] = st
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, s.lastCloses(ctx, asOf, syms, out)
}

// lastCloses adds each symbol's closes of consecutive sessions up to the
// last one stored on or before asOf.
func (s *Store) lastCloses(ctx context.Context, asOf api.Date, syms []string, out map[string]vol.PastStats) error {
	from := SessionsBefore(asOf, hvCloses+5)[0] // a few sessions more: the day itself may not be stored
	args := []any{s.id(), int64(from), int64(asOf)}
	for _, sym := range syms {
		args = append(args, sym)
	}
	rows, err := s.query(ctx, `SELECT symbol, day, close FROM series
		WHERE service = ? AND day >= ? AND day <= ? AND close IS NOT NULL AND close > 0
		AND symbol IN (?`+strings.Repeat(",?", len(syms)-1)+`) ORDER BY symbol, day`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	days := map[string][]api.Date{}
	closes := map[string][]float64{}
	for rows.Next() {
		var sym string
		var day int64
		var c float64
		if err := rows.Scan(&sym, &day, &c); err != nil {
			return err
		}
		days[sym], closes[sym] = append(days[sym], api.Date(day)), append(closes[sym], c)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for sym, ds := range days {
		st := out[sym]
		st.Closes = consecutive(ds, closes[sym])
		if len(st.Closes) > hvCloses {
			st.Closes = st.Closes[len(st.Closes)-hvCloses:]
		}
		out[sym] = st
	}
	return nil
}

// consecutive keeps the closes of consecutive sessions from the newest
// back: a gap in the store ends them.
func consecutive(days []api.Date, closes []float64) []float64 {
	j := len(days) - 1
	for j > 0 && days[j-1] == market.PrevTradingDay(days[j]) {
		j--
	}
	return closes[j:]
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
	rows, err := s.query(ctx, `SELECT day, close FROM series
		WHERE service = ? AND symbol = ? AND day >= ? AND day <= ?`, s.id(), symbol, int64(lo), int64(hi))
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
		var c sql.NullFloat64
		if err := rows.Scan(&day, &c); err != nil {
			return out, err
		}
		if c.Valid && want[api.Date(day)] {
			out[api.Date(day)] = c.Float64
		}
	}
	return out, rows.Err()
}
