package record

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/parquet-go/parquet-go"

	"chainwatch/api"
)

// ChainRow is a row of the exported chain table: one contract of one
// recorded chain answer. The date and the symbol are the Hive partition
// (date=…/symbol=…/), not columns of the file.
type ChainRow struct {
	AnswerTime     time.Time `parquet:"answer_time,timestamp(millisecond)"`
	Option         string    `parquet:"option"`
	Root           string    `parquet:"root"`
	Expiry         int32     `parquet:"expiry,date"` // days since 1970-01-01 (Parquet DATE)
	Strike         float64   `parquet:"strike"`
	OptionType     string    `parquet:"option_type"`
	QuoteTime      int32     `parquet:"quote_time_ms"` // milliseconds after midnight, Eastern
	Bid            *float64  `parquet:"bid,optional"`
	Ask            *float64  `parquet:"ask,optional"`
	Mid            *float64  `parquet:"mid,optional"`
	BidSize        *int64    `parquet:"bid_size,optional"`
	AskSize        *int64    `parquet:"ask_size,optional"`
	LastTradePrice *float64  `parquet:"last_trade_price,optional"`
	Volume         *int64    `parquet:"volume,optional"`
	OpenInterest   *int64    `parquet:"open_interest,optional"`
	IV             *float64  `parquet:"iv,optional"`
	Delta          *float64  `parquet:"delta,optional"`
	Gamma          *float64  `parquet:"gamma,optional"`
	Theta          *float64  `parquet:"theta,optional"`
	Vega           *float64  `parquet:"vega,optional"`
	UnderlyingMid  *float64  `parquet:"underlying_mid,optional"`
}

// TradeRow is a row of the exported trades table: one option trade,
// once however many recorded answers held it (by seq_no).
type TradeRow struct {
	AnswerTime time.Time `parquet:"answer_time,timestamp(millisecond)"`
	Option     string    `parquet:"option"`
	Root       string    `parquet:"root"`
	Expiry     int32     `parquet:"expiry,date"` // days since 1970-01-01 (Parquet DATE)
	Strike     float64   `parquet:"strike"`
	OptionType string    `parquet:"option_type"`
	TradeTime  int32     `parquet:"trade_time_ms"` // milliseconds after midnight, Eastern
	Price      *float64  `parquet:"price,optional"`
	Size       int64     `parquet:"size"`
	Bid        *float64  `parquet:"bid,optional"`
	Ask        *float64  `parquet:"ask,optional"`
	ExchangeID int32     `parquet:"exchange_id"`
	Condition  int32     `parquet:"condition_id"`
	SeqNo      int64     `parquet:"seq_no"`
}

// Exported says what Export wrote.
type Exported struct {
	Files          []string
	Chains, Trades int // rows
	Skipped        int // answers whose body was damaged or did not decode
}

// Export writes the day's chain snapshots and trades under dir as
// Hive-partitioned Parquet: chains/date=D/symbol=S/part-0.parquet and
// trades/date=D/symbol=S/part-0.parquet.
func Export(d *Day, dir string) (Exported, error) {
	var out Exported
	chains := map[string][]ChainRow{}
	trades := map[string][]TradeRow{}
	seen := map[string]map[int64]bool{}
	skipped, err := d.Each(func(r Recorded) error {
		if r.Status != 200 || r.Symbol == "" {
			return nil
		}
		switch r.Endpoint {
		case api.EndpointOptionQuotes:
			ch, err := api.DecodeChain(r.Body, r.Format)
			if err != nil {
				out.Skipped++
				return nil
			}
			chains[r.Symbol] = appendChain(chains[r.Symbol], r.At, ch)
		case api.EndpointOptionTrades:
			ts, err := api.DecodeOptionTrades(r.Body, r.Format)
			if err != nil {
				out.Skipped++
				return nil
			}
			if seen[r.Symbol] == nil {
				seen[r.Symbol] = map[int64]bool{}
			}
			for _, t := range ts {
				if !seen[r.Symbol][t.SeqNo] {
					seen[r.Symbol][t.SeqNo] = true
					trades[r.Symbol] = append(trades[r.Symbol], tradeRow(r.At, t))
				}
			}
		}
		return nil
	})
	out.Skipped += skipped
	if err != nil {
		return out, err
	}
	for _, sym := range sortedKeys(chains) {
		f, err := writePart(dir, "chains", d.Date, sym, chains[sym])
		if err != nil {
			return out, err
		}
		out.Files, out.Chains = append(out.Files, f), out.Chains+len(chains[sym])
	}
	for _, sym := range sortedKeys(trades) {
		rows := trades[sym]
		slices.SortFunc(rows, func(a, b TradeRow) int { return compareInt(a.SeqNo, b.SeqNo) })
		f, err := writePart(dir, "trades", d.Date, sym, rows)
		if err != nil {
			return out, err
		}
		out.Files, out.Trades = append(out.Files, f), out.Trades+len(rows)
	}
	return out, nil
}

func writePart[T any](dir, table string, day api.Date, sym string, rows []T) (string, error) {
	folder := filepath.Join(dir, table, "date="+day.String(), "symbol="+sym)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(folder, "part-0.parquet")
	if err := parquet.WriteFile(path, rows); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, nil
}

func appendChain(rows []ChainRow, at time.Time, ch *api.SymbolWithOptions) []ChainRow {
	und := ptr(ch.Mid)
	for _, o := range ch.Options {
		rows = append(rows, ChainRow{AnswerTime: at.UTC(), Option: o.Option, Root: o.Root, Expiry: dateOf(o.Expiry),
			Strike: o.Strike, OptionType: string(o.OptionType), QuoteTime: int32(o.Timestamp),
			Bid: ptr(o.Bid), Ask: ptr(o.Ask), Mid: ptr(o.Mid), BidSize: ptr(o.BidSize), AskSize: ptr(o.AskSize),
			LastTradePrice: ptr(o.LastTradePrice), Volume: ptr(o.Volume), OpenInterest: ptr(o.OpenInterest),
			IV: ptr(o.IV), Delta: ptr(o.Delta), Gamma: ptr(o.Gamma), Theta: ptr(o.Theta), Vega: ptr(o.Vega),
			UnderlyingMid: und})
	}
	return rows
}

func tradeRow(at time.Time, t api.OptionTrade) TradeRow {
	return TradeRow{AnswerTime: at.UTC(), Option: t.Security.Or(""), Root: t.Root, Expiry: dateOf(t.Expiry), Strike: t.Strike,
		OptionType: string(t.OptionType), TradeTime: int32(t.Timestamp), Price: ptr(t.Price), Size: t.Size,
		Bid: ptr(t.Bid), Ask: ptr(t.Ask), ExchangeID: int32(t.ExchangeID), Condition: int32(t.ConditionID), SeqNo: t.SeqNo}
}

// ptr is a null's value as a Parquet optional.
func ptr[T any](n api.Null[T]) *T {
	if v, ok := n.Get(); ok {
		return &v
	}
	return nil
}

// dateOf is d as Parquet's DATE: days since 1970-01-01.
func dateOf(d api.Date) int32 {
	return int32(time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
