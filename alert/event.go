package alert

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"chainwatch/api"
	"chainwatch/scan"
)

// Event is one firing of a rule: the rule, what it watched, the value
// against the level, and the data's own time and sequence number, by
// which it is fired once (Key). Its JSON is a line of the log and of
// `chainwatch alerts --watch`; an IV is a fraction there, as every IV
// chainwatch prints.
type Event struct {
	Rule     string  `json:"rule"`
	Kind     string  `json:"kind"`
	Symbol   string  `json:"symbol"`
	Contract string  `json:"contract,omitempty"`
	Value    float64 `json:"value"`
	Level    float64 `json:"level"`
	// Direction is above or below for a level (a block: at_least).
	Direction string    `json:"direction"`
	Time      time.Time `json:"time"` // the data's time (Eastern), not when it was fetched
	Seq       int64     `json:"seq"`  // the data's sequence number; 0 when it has none
	Size      int64     `json:"size,omitempty"`
	Price     float64   `json:"price,omitempty"`
	Premium   float64   `json:"premium,omitempty"`
	Text      string    `json:"text"`
	FiredAt   time.Time `json:"fired_at"`
}

// Key is the event's identity: the rule, what it is about, the data's
// time and sequence number. Unusual activity is once a day per contract.
func (e *Event) Key() string {
	t := e.Time.Format(time.RFC3339Nano)
	if e.Kind == KindUnusual.String() {
		t = e.Time.Format(time.DateOnly)
	}
	return e.Rule + "\x00" + e.Symbol + "\x00" + e.Contract + "\x00" + t + "\x00" + strconv.FormatInt(e.Seq, 10)
}

// Record is a line of the log: a fired event, or a rule re-armed (its
// value came back past the level by the margin), which a restart needs
// to know whether the rule is armed.
type Record struct {
	Type string `json:"event"`         // fired or rearmed
	Def  string `json:"def,omitempty"` // the rule in words when it was written: an edited rule starts afresh
	Event

	exec [][]string // the commands to run for it, once it is new
}

// Record types.
const (
	Fired   = "fired"
	Rearmed = "rearmed"
)

// JSON is the record as one line, without its line end.
func (r *Record) JSON() []byte {
	b, err := json.Marshal(r)
	if err != nil { // a NaN value: said as null rather than lost
		c := *r
		c.Value, c.Level, c.Price, c.Premium = 0, 0, 0, 0
		b, _ = json.Marshal(&c)
	}
	return b
}

// dataTime is the data's time: day and time of day, Eastern.
func dataTime(day api.Date, t api.TimeOfDay) time.Time {
	if day == 0 {
		return time.Time{}
	}
	return t.On(day)
}

// text is the event in words: "SPY price above 700: 700.12 at 10:41:03".
func (e *Event) text(r *Rule) string {
	at := e.Time.In(api.Eastern).Format("15:04:05")
	switch r.Kind {
	case KindBlock, KindSweep:
		what := "block"
		if r.Kind == KindSweep {
			what = "sweep"
		}
		return fmt.Sprintf("%s %s %s x %s ($%s) at %s", e.Contract, what, scan.GroupDigits(e.Size), price(e.Price),
			scan.GroupDigits(int64(e.Premium+0.5)), at)
	case KindUnusual:
		return fmt.Sprintf("%s unusual: volume %s, volume/OI %s at %s", e.Contract, scan.GroupDigits(e.Size), num(e.Value), at)
	case KindScan:
		return fmt.Sprintf("scan %s gained %s at %s", r.Scan, e.Symbol, at)
	case KindIV, KindIV30:
		return fmt.Sprintf("%s: %s%% at %s", r.Name, num(e.Value*100), at)
	case KindPrice, KindBid, KindAsk, KindMid:
		return fmt.Sprintf("%s: %s at %s", r.Name, price(e.Value), at)
	}
	return fmt.Sprintf("%s: %s at %s", r.Name, num(e.Value), at)
}
