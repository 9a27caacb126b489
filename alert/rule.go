// Package alert is chainwatch's alert rules, with no terminal in it: a
// rule (a price that crosses a level, a block that prints, a scan that
// gains a symbol), its evaluation on the replies the data monitor settles
// (the data already bought), the feed it adds when nothing on screen
// fetches what it needs and what that costs, the event it fires once per
// crossing, the log that survives a restart, and the ways an event is
// delivered that need no screen (a command, a terminal notification's
// escape sequence). The TUI's alerts page and `chainwatch alerts` share
// it.
package alert

import (
	"fmt"
	"math"
	"strings"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/scan"
)

// Kind is what a rule watches.
type Kind uint8

// The kinds, as config.AlertKinds names them.
const (
	KindPrice   Kind = iota + 1 // the underlying's price crosses a level
	KindBid                     // an option's bid crosses a level
	KindAsk                     // an option's ask crosses a level
	KindMid                     // an option's mid crosses a level
	KindIV                      // an option's IV crosses a level
	KindIV30                    // IV30 moves N points from the open, the close or when armed
	KindBlock                   // a print of at least N contracts or $N premium
	KindSweep                   // a multi-exchange sweep (tas.InSweep)
	KindUnusual                 // volume/OI of a contract reaches N with volume at least M
	KindScan                    // a saved scan gains a symbol
)

// String is the kind as the config file names it.
func (k Kind) String() string {
	if k >= KindPrice && k <= KindScan {
		return config.AlertKinds[k-1]
	}
	return "kind(" + fmt.Sprint(int(k)) + ")"
}

// KindOf is the kind config names s.
func KindOf(s string) (Kind, bool) {
	for i, n := range config.AlertKinds {
		if n == s {
			return Kind(i + 1), true
		}
	}
	return 0, false
}

// leveled reports whether k crosses a level (fires once per crossing).
func (k Kind) leveled() bool { return k >= KindPrice && k <= KindIV30 }

// optionLevel reports whether k is a level of one option's quote.
func (k Kind) optionLevel() bool { return k >= KindBid && k <= KindIV }

// Rule is one alert rule.
type Rule struct {
	Name     string // unique among the rules (without regard to case); default Describe
	Kind     Kind
	Symbol   string // the underlying
	Contract string // one option (its OSI symbol); "" for the whole symbol
	Above    bool   // a level kind fires above Level (else below)
	// Level is in the value's own unit: dollars, an option's IV as a
	// fraction (0.25), IV30 points for iv30's Move.
	Level  float64
	Margin float64 // how far back past the level before it re-arms
	Move   float64 // iv30: the points it moves
	From   string  // iv30: open, close or armed
	// MinSize and MinPremium: a block's (or a sweep's) contracts and
	// dollars; Ratio and MinVolume: unusual activity.
	MinSize    int64
	MinPremium float64
	Ratio      float64
	MinVolume  int64
	Scan       string   // scan: the saved scan or preset
	Exec       []string // run for each event (beside --exec)
	Enabled    bool
	Line       int    // the config file's line; 0 for a rule made on screen
	Where      string // "file:line" of what it watches in the config file, for its problems
}

// Describe is the rule in words: "SPY price above 700".
func (r Rule) Describe() string {
	what := r.Symbol
	if r.Contract != "" {
		what = r.Contract
	}
	dir := "below"
	if r.Above {
		dir = "above"
	}
	switch r.Kind {
	case KindPrice:
		return fmt.Sprintf("%s price %s %s", what, dir, num(r.Level))
	case KindBid, KindAsk, KindMid:
		return fmt.Sprintf("%s %s %s %s", what, r.Kind, dir, num(r.Level))
	case KindIV:
		return fmt.Sprintf("%s IV %s %s%%", what, dir, num(r.Level*100))
	case KindIV30:
		return fmt.Sprintf("%s IV30 moves %s pts from %s", what, num(r.Move), fromWords(r.From))
	case KindBlock, KindSweep:
		return fmt.Sprintf("%s %ss%s", what, r.Kind, r.thresholds())
	case KindUnusual:
		var parts []string
		if r.Ratio > 0 {
			parts = append(parts, "volume/OI ≥ "+num(r.Ratio))
		}
		if r.MinVolume > 0 {
			parts = append(parts, "volume ≥ "+scan.GroupDigits(r.MinVolume))
		}
		return fmt.Sprintf("%s unusual: %s", what, strings.Join(parts, ", "))
	case KindScan:
		return fmt.Sprintf("scan %s gains a symbol", r.Scan)
	}
	return what
}

func (r Rule) thresholds() string {
	var parts []string
	if r.MinSize > 0 {
		parts = append(parts, scan.GroupDigits(r.MinSize)+" contracts")
	}
	if r.MinPremium > 0 {
		parts = append(parts, "$"+scan.GroupDigits(int64(math.Round(r.MinPremium))))
	}
	if len(parts) == 0 {
		return ""
	}
	return " ≥ " + strings.Join(parts, " and ")
}

func fromWords(from string) string {
	switch from {
	case "close":
		return "the close"
	case "armed":
		return "when armed"
	}
	return "the open"
}

// price is a price as a trader reads it: its cents always (0.10, not
// 0.1; 700.00), more decimals only when it has them (0.0525).
func price(v float64) string {
	s := num(v)
	switch i := strings.IndexByte(s, '.'); {
	case i < 0:
		return s + ".00"
	case len(s)-i == 2:
		return s + "0"
	}
	return s
}

// num is a level as a trader writes it: 700, 2.5, 0.25.
func num(v float64) string {
	s := fmt.Sprintf("%.4f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// Target is what a rule watches, for the messages: its contract or symbol.
func (r Rule) Target() string {
	if r.Contract != "" {
		return r.Contract
	}
	if r.Kind == KindScan {
		return r.Scan
	}
	return r.Symbol
}

// WithDefaults is r with what it leaves out filled in: the margin (when
// 0), an iv30 rule's from, the name (the rule in words).
func (r Rule) WithDefaults() Rule {
	if r.Margin == 0 {
		r.Margin = r.DefaultMargin()
	}
	if r.Kind == KindIV30 && r.From == "" {
		r.From = "open"
	}
	if r.Name == "" {
		r.Name = r.Describe()
	}
	return r
}

// DefaultMargin is how far a value must come back past the level before
// the rule re-arms, when the rule does not say: a tenth of a percent of
// a price (70 cents at 700), two cents or 2 % of an option's price, half
// an IV point.
func (r Rule) DefaultMargin() float64 {
	switch r.Kind {
	case KindPrice:
		return math.Max(r.Level*0.001, 0.01)
	case KindBid, KindAsk, KindMid:
		return math.Max(r.Level*0.02, 0.02)
	case KindIV:
		return 0.005
	case KindIV30:
		return 0.5
	}
	return 0
}

// underlyingOf is the underlying of an option root: the root itself,
// except the weekly and PM-settled roots of the indices.
var underlyingOf = map[string]string{"SPXW": "SPX", "NDXP": "NDX", "RUTW": "RUT", "VIXW": "VIX", "XSPW": "XSP", "DJXW": "DJX"}

// UnderlyingOf is the underlying whose chain lists the root.
func UnderlyingOf(root string) string {
	if u, ok := underlyingOf[root]; ok {
		return u
	}
	return root
}

// FromTable is the rule of a checked [[alert]] (config.AlertTable.Check
// has passed): the IV level is a fraction here (the file says percent).
func FromTable(t config.AlertTable) Rule {
	k, _ := KindOf(t.Kind)
	r := Rule{Name: t.Name, Kind: k, Symbol: t.Symbol, Contract: t.Contract, From: t.From, Scan: t.Scan,
		Exec: t.Exec, Enabled: t.IsEnabled()}
	if r.Symbol == "" && r.Contract != "" {
		if o, err := api.ParseOSI(r.Contract); err == nil {
			r.Symbol = UnderlyingOf(o.Root)
		}
	}
	switch {
	case t.Above != nil:
		r.Above, r.Level = true, *t.Above
	case t.Below != nil:
		r.Level = *t.Below
	}
	if k == KindIV {
		r.Level /= 100
	}
	if r.From == "" && k == KindIV30 {
		r.From = "open"
	}
	r.Margin = r.DefaultMargin()
	if t.Margin != nil {
		r.Margin = *t.Margin
		if k == KindIV {
			r.Margin /= 100
		}
	}
	r.Move = deref(t.Move)
	r.MinSize, r.MinPremium = deref(t.MinSize), deref(t.MinPremium)
	r.Ratio, r.MinVolume = deref(t.Ratio), deref(t.MinVolume)
	if r.Name == "" {
		r.Name = r.Describe()
	}
	return r
}

func deref[T any](p *T) T {
	var z T
	if p == nil {
		return z
	}
	return *p
}

// Table is r as the config file writes it (FromTable's inverse); the
// name is left out when it is the rule in words.
func (r Rule) Table() config.AlertTable {
	t := config.AlertTable{Kind: r.Kind.String(), Symbol: r.Symbol, Contract: r.Contract, Scan: r.Scan, Exec: r.Exec}
	if r.Name != r.Describe() {
		t.Name = r.Name
	}
	if r.Contract != "" {
		if o, err := api.ParseOSI(r.Contract); err == nil && UnderlyingOf(o.Root) == r.Symbol {
			t.Symbol = "" // said by the contract
		}
	}
	scale := 1.0
	if r.Kind == KindIV {
		scale = 100
	}
	if r.Kind.leveled() && r.Kind != KindIV30 {
		lv := r.Level * scale
		if r.Above {
			t.Above = &lv
		} else {
			t.Below = &lv
		}
	}
	if r.Kind.leveled() && r.Margin != r.DefaultMargin() {
		m := r.Margin * scale
		t.Margin = &m
	}
	if r.Kind == KindIV30 {
		t.Move, t.From = &r.Move, r.From
	}
	t.MinSize, t.MinPremium = ptrIf(r.MinSize), ptrIf(r.MinPremium)
	t.Ratio, t.MinVolume = ptrIf(r.Ratio), ptrIf(r.MinVolume)
	if !r.Enabled {
		t.Enabled = new(bool)
	}
	return t
}

func ptrIf[T int64 | float64](v T) *T {
	if v == 0 {
		return nil
	}
	return &v
}

// NameOf is the name a table's rule goes by (config.AlertName).
func NameOf(t config.AlertTable) string {
	if err := t.Check(); err != nil {
		return t.Name
	}
	return FromTable(t).Name
}
