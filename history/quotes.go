package history

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"chainwatch/api"
)

// quoteCols are the quotes table's value columns, in the order quoteArgs
// writes and scanQuote reads them.
const quoteCols = "ts, last, last_size, bid, ask, bid_size, ask_size, mid, open, high, low, close, prev_close, volume, iv30, iv30_change, iv30_change_pct, seq_no"

// floatCol and intCol map a column to its field of the element.
func floatFields(u *api.Underlying) []*api.Float {
	return []*api.Float{&u.LastTradePrice, nil, &u.Bid, &u.Ask, nil, nil, &u.Mid, &u.Open, &u.High, &u.Low, &u.Close, &u.PrevDayClose, nil, &u.IV30, &u.IV30Change, &u.IV30ChangePercent, nil}
}

func intFields(u *api.Underlying) []*api.Int {
	return []*api.Int{nil, &u.LastTradeSize, nil, nil, &u.BidSize, &u.AskSize, nil, nil, nil, nil, nil, nil, &u.Volume, nil, nil, nil, &u.SeqNo}
}

// quoteArgs are an element's column values after ts (nil for null). The
// implied-underlying fields and the indicator are not kept: the service
// sends them null for every past day.
func quoteArgs(u *api.Underlying) []any {
	fs, is := floatFields(u), intFields(u)
	out := make([]any, 0, len(fs)+1)
	out = append(out, int64(u.Timestamp))
	for i := range fs {
		switch {
		case fs[i] != nil && fs[i].Valid:
			out = append(out, fs[i].V)
		case is[i] != nil && is[i].Valid:
			out = append(out, is[i].V)
		default:
			out = append(out, nil)
		}
	}
	return out
}

// scanQuote reads a row's columns (ts first) into an element.
func scanQuote(sc interface{ Scan(...any) error }, symbol string, extra ...any) (api.Symbol, error) {
	var s api.Symbol
	s.Symbol = symbol
	fs, is := floatFields(&s.Underlying), intFields(&s.Underlying)
	var ts sql.NullInt64
	fv := make([]sql.NullFloat64, len(fs))
	iv := make([]sql.NullInt64, len(fs))
	dest := append([]any{}, extra...)
	dest = append(dest, &ts)
	for i := range fs {
		if fs[i] != nil {
			dest = append(dest, &fv[i])
		} else {
			dest = append(dest, &iv[i])
		}
	}
	if err := sc.Scan(dest...); err != nil {
		return s, err
	}
	s.Timestamp = api.TimeOfDay(ts.Int64)
	for i := range fs {
		if fs[i] != nil && fv[i].Valid {
			*fs[i] = api.Some(fv[i].Float64)
		}
		if is[i] != nil && iv[i].Valid {
			*is[i] = api.Some(iv[i].Int64)
		}
	}
	return s, nil
}

// Quotes is api.History's: the stored elements of symbols on day (those
// kept to be saved included).
func (s *Store) Quotes(ctx context.Context, day api.Date, symbols []string) (got []api.Symbol, missing []string) {
	if len(symbols) == 0 {
		return nil, nil
	}
	q := "SELECT symbol, present, " + quoteCols + " FROM quotes WHERE service = ? AND day = ? AND symbol IN (?" + strings.Repeat(",?", len(symbols)-1) + ")"
	args := []any{s.id(), int64(day)}
	for _, sym := range symbols {
		args = append(args, sym)
	}
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, symbols
	}
	defer rows.Close()
	found := map[string]*api.Symbol{}
	for rows.Next() {
		var sym string
		var present bool
		el, err := scanQuote(rows, "", &sym, &present)
		if err != nil {
			return nil, symbols
		}
		el.Symbol = sym
		if present {
			found[sym] = &el
		} else {
			found[sym] = nil
		}
	}
	if rows.Err() != nil {
		return nil, symbols
	}
	s.keptQuotes(day, symbols, found)
	for _, sym := range symbols {
		el, ok := found[sym]
		switch {
		case !ok:
			missing = append(missing, sym)
		case el != nil:
			got = append(got, *el)
		}
	}
	return got, missing
}

// KeepQuotes is api.History's: every symbol asked, present or absent. It
// returns nil once they are saved or kept to be saved (saving.go).
func (s *Store) KeepQuotes(ctx context.Context, day api.Date, asked []string, got []api.Symbol) error {
	row := &quotesRow{day: day, asked: slices.Clone(asked), by: make(map[string]api.Symbol, len(got))}
	for i := range got {
		row.by[strings.ToUpper(got[i].Symbol)] = got[i]
	}
	return s.write(ctx, &op{size: len(asked) * s.pol.quoteSize, quotes: row, run: row.insert(s.id())})
}

// insert writes the row's symbol-days (quotes and series) for service.
func (row *quotesRow) insert(service int64) func(ctx context.Context, tx *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		ins := "INSERT OR REPLACE INTO quotes(service, symbol, day, present, " + quoteCols + ") VALUES (?,?,?,?" + strings.Repeat(",?", 18) + ")"
		st, err := tx.PrepareContext(ctx, ins)
		if err != nil {
			return err
		}
		defer st.Close()
		ser, err := tx.PrepareContext(ctx, "INSERT OR REPLACE INTO series(service, symbol, day, iv30, close) VALUES (?,?,?,?,?)")
		if err != nil {
			return err
		}
		defer ser.Close()
		for _, sym := range row.asked {
			args := []any{service, sym, int64(row.day)}
			if el, ok := row.by[sym]; ok {
				args = append(args, 1)
				args = append(args, quoteArgs(&el.Underlying)...)
				if _, err := ser.ExecContext(ctx, service, sym, int64(row.day), nullFloat(el.IV30), nullFloat(closeOf(&el.Underlying))); err != nil {
					return err
				}
			} else {
				args = append(args, 0)
				args = append(args, make([]any, 18)...)
			}
			if _, err := st.ExecContext(ctx, args...); err != nil {
				return err
			}
		}
		return nil
	}
}

// closeOf is a past day's close: underlying_close, else the last trade.
func closeOf(u *api.Underlying) api.Float {
	if u.Close.Valid {
		return u.Close
	}
	return u.LastTradePrice
}

func nullFloat(f api.Float) any {
	if !f.Valid {
		return nil
	}
	return f.V
}
