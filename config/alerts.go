package config

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"chainwatch/api"
	"chainwatch/text"
)

// Alert rules are [[alert]] tables of the config file, checked here as
// the saved scans are: when the file is read, each error naming the file,
// the line of the key at fault and, for a word it does not know, the
// nearest one it does. Package alert turns a checked table into a rule it
// evaluates; config cannot import it (alert reads config's defaults).
//
//	[[alert]]
//	name = "SPY above 700"   # optional; default: the rule in words
//	kind = "price"           # price bid ask mid iv iv30 block sweep unusual scan
//	symbol = "SPY"           # the underlying (contract: one option, OSI)
//	above = 700              # or below; margin: how far back before it re-arms

// AlertTable is one [[alert]]. A pointer is a key the file leaves out.
type AlertTable struct {
	Name       string   `toml:"name"`
	Kind       string   `toml:"kind"`
	Symbol     string   `toml:"symbol"`
	Contract   string   `toml:"contract"`
	Above      *float64 `toml:"above"`
	Below      *float64 `toml:"below"`
	Margin     *float64 `toml:"margin"`
	Move       *float64 `toml:"move"`
	From       string   `toml:"from"`
	MinSize    *int64   `toml:"min_size"`
	MinPremium *float64 `toml:"min_premium"`
	Ratio      *float64 `toml:"ratio"`
	MinVolume  *int64   `toml:"min_volume"`
	Scan       string   `toml:"scan"`
	Exec       []string `toml:"exec"`
	Enabled    *bool    `toml:"enabled"`
}

// AlertSettings is the [alerts] table: what applies to every rule.
type AlertSettings struct {
	Every       string   `toml:"every"`        // how often the rules' own data is fetched (AlertEvery)
	Exec        []string `toml:"exec"`         // run for every event, the event as JSON on stdin
	ExecTimeout string   `toml:"exec_timeout"` // AlertExecTimeout
	Desktop     string   `toml:"desktop"`      // auto, osc9, osc777 or off
	Bell        *bool    `toml:"bell"`         // the terminal bell on an event (default true)
}

// AlertKinds are the kinds of rule, as kind = "..." names them.
var AlertKinds = []string{"price", "bid", "ask", "mid", "iv", "iv30", "block", "sweep", "unusual", "scan"}

// AlertKeys are the keys an [[alert]] takes, in the order it is written.
var AlertKeys = []string{"name", "kind", "symbol", "contract", "above", "below", "margin", "move", "from",
	"min_size", "min_premium", "ratio", "min_volume", "scan", "exec", "enabled"}

// AlertFroms are where an iv30 rule measures its move from.
var AlertFroms = []string{"open", "close", "armed"}

// DesktopModes are the values of [alerts] desktop.
var DesktopModes = []string{"auto", "osc9", "osc777", "off"}

// kindKeys are the keys each kind takes besides name, kind, exec and
// enabled.
var kindKeys = map[string][]string{
	"price":   {"symbol", "above", "below", "margin"},
	"bid":     {"symbol", "contract", "above", "below", "margin"},
	"ask":     {"symbol", "contract", "above", "below", "margin"},
	"mid":     {"symbol", "contract", "above", "below", "margin"},
	"iv":      {"symbol", "contract", "above", "below", "margin"},
	"iv30":    {"symbol", "move", "from", "margin"},
	"block":   {"symbol", "contract", "min_size", "min_premium"},
	"sweep":   {"symbol", "contract", "min_size", "min_premium"},
	"unusual": {"symbol", "contract", "ratio", "min_volume"},
	"scan":    {"scan"},
}

// maxAlertName bounds a rule's name, a row of the alerts page.
const maxAlertName = 80

// set lists the keys t gives.
func (t *AlertTable) set() []string {
	given := map[string]bool{
		"name": t.Name != "", "kind": t.Kind != "", "symbol": t.Symbol != "", "contract": t.Contract != "",
		"above": t.Above != nil, "below": t.Below != nil, "margin": t.Margin != nil, "move": t.Move != nil,
		"from": t.From != "", "min_size": t.MinSize != nil, "min_premium": t.MinPremium != nil,
		"ratio": t.Ratio != nil, "min_volume": t.MinVolume != nil, "scan": t.Scan != "",
		"exec": t.Exec != nil, "enabled": t.Enabled != nil,
	}
	var out []string
	for _, k := range AlertKeys {
		if given[k] {
			out = append(out, k)
		}
	}
	return out
}

// alertError is a problem of one key of an [[alert]]: which key, and why.
type alertError struct {
	key string
	err error
}

func (e *alertError) Error() string { return e.err.Error() }

func keyErr(key string, format string, args ...any) error {
	return &alertError{key: key, err: fmt.Errorf(format, args...)}
}

// Check validates and normalises t (a trimmed name, the kind in lower
// case, the symbol by the symbol rule, the contract as its OSI symbol).
// The error names the key at fault (AlertKeyOf).
func (t *AlertTable) Check() error {
	t.Name = strings.TrimSpace(t.Name)
	t.Kind = strings.ToLower(strings.TrimSpace(t.Kind))
	t.From = strings.ToLower(strings.TrimSpace(t.From))
	t.Scan = strings.TrimSpace(t.Scan)
	switch {
	case utf8.RuneCountInString(t.Name) > maxAlertName:
		return keyErr("name", "name must be at most %d characters", maxAlertName)
	case strings.IndexFunc(t.Name, unicode.IsControl) >= 0:
		return keyErr("name", "name must be one line without control characters")
	case t.Kind == "":
		return keyErr("kind", "kind is required: one of %s", strings.Join(AlertKinds, ", "))
	case !slices.Contains(AlertKinds, t.Kind):
		return keyErr("kind", "kind %s: want one of %s%s", text.Quote(t.Kind), strings.Join(AlertKinds, ", "), didYouMean(t.Kind, AlertKinds))
	}
	allowed := append([]string{"name", "kind", "exec", "enabled"}, kindKeys[t.Kind]...)
	for _, k := range t.set() {
		if !slices.Contains(allowed, k) {
			return keyErr(k, "%s does not apply to a %s alert (it takes %s)", k, t.Kind, strings.Join(kindKeys[t.Kind], ", "))
		}
	}
	if err := t.checkTarget(); err != nil {
		return err
	}
	if err := t.checkValues(); err != nil {
		return err
	}
	for i, a := range t.Exec {
		if strings.TrimSpace(a) == "" || strings.ContainsRune(a, 0) {
			return keyErr("exec", "exec: argument %d is empty; exec is a program and its arguments, no shell", i+1)
		}
	}
	return nil
}

// checkTarget checks what the rule watches: a symbol, a contract, a scan.
func (t *AlertTable) checkTarget() error {
	if t.Symbol != "" {
		s, err := ParseSymbol(t.Symbol)
		if err != nil {
			return keyErr("symbol", "%w", err)
		}
		t.Symbol = s
	}
	if t.Contract != "" {
		o, err := api.ParseOSI(t.Contract)
		if err != nil {
			return keyErr("contract", "contract: %w", err)
		}
		t.Contract = o.String()
	}
	switch t.Kind {
	case "price", "iv30":
		if t.Symbol == "" {
			return keyErr("symbol", "a %s alert needs symbol", t.Kind)
		}
	case "bid", "ask", "mid", "iv":
		if t.Contract == "" {
			return keyErr("contract", "a %s alert needs contract (an OSI symbol such as SPY261120C00700000)", t.Kind)
		}
	case "block", "sweep", "unusual":
		if t.Symbol == "" && t.Contract == "" {
			return keyErr("symbol", "a %s alert needs symbol or contract", t.Kind)
		}
	case "scan":
		if t.Scan == "" {
			return keyErr("scan", "a scan alert needs scan: the name of a saved scan or a preset")
		}
	}
	return nil
}

// checkValues checks the levels and thresholds of t's kind.
func (t *AlertTable) checkValues() error {
	if err := t.checkNumbers(); err != nil {
		return err
	}
	switch t.Kind {
	case "price", "bid", "ask", "mid", "iv":
		switch {
		case t.Above == nil && t.Below == nil:
			return keyErr("above", "a %s alert needs above or below (the level it crosses)", t.Kind)
		case t.Above != nil && t.Below != nil:
			return keyErr("below", "give above or below, not both: each [[alert]] watches one crossing")
		}
	case "iv30":
		if t.Move == nil || *t.Move <= 0 {
			return keyErr("move", "an iv30 alert needs move: the IV30 points it moves, e.g. 2")
		}
		if t.From != "" && !slices.Contains(AlertFroms, t.From) {
			return keyErr("from", "from %s: want %s%s", text.Quote(t.From), strings.Join(AlertFroms, ", "), didYouMean(t.From, AlertFroms))
		}
	case "block":
		if t.MinSize == nil && t.MinPremium == nil {
			return keyErr("min_size", "a block alert needs min_size (contracts) or min_premium (dollars)")
		}
	case "unusual":
		if t.Ratio == nil && t.MinVolume == nil {
			return keyErr("ratio", "an unusual alert needs ratio (volume / open interest) or min_volume")
		}
	}
	return t.checkCounts()
}

// checkCounts checks the thresholds in contracts.
func (t *AlertTable) checkCounts() error {
	for _, f := range []struct {
		key string
		v   *int64
	}{{"min_size", t.MinSize}, {"min_volume", t.MinVolume}} {
		if f.v != nil && *f.v < 1 {
			return keyErr(f.key, "%s = %d: want at least 1", f.key, *f.v)
		}
	}
	return nil
}

// checkNumbers refuses a level or threshold that is not a number >= 0.
func (t *AlertTable) checkNumbers() error {
	for _, f := range []struct {
		key string
		v   *float64
	}{{"above", t.Above}, {"below", t.Below}, {"margin", t.Margin}, {"move", t.Move}, {"min_premium", t.MinPremium}, {"ratio", t.Ratio}} {
		if f.v != nil && (math.IsNaN(*f.v) || math.IsInf(*f.v, 0) || *f.v < 0) {
			return keyErr(f.key, "%s = %v: want a number of at least 0", f.key, *f.v)
		}
	}
	return nil
}

// IsEnabled reports whether the rule is on (the default).
func (t AlertTable) IsEnabled() bool { return t.Enabled == nil || *t.Enabled }

// didYouMean is "; did you mean X?" for the known word nearest w, or "".
func didYouMean(w string, known []string) string {
	if near := NearestSymbol(w, known); near != "" {
		return "; did you mean " + near + "?"
	}
	return ""
}

// checkAlerts checks every [[alert]] and [alerts], each error naming the
// file, the line and the rule.
func (fc *File) checkAlerts(path, data string) error {
	if len(fc.Alerts) > MaxAlerts {
		return fmt.Errorf("%s: %d [[alert]] tables; chainwatch takes at most %d", path, len(fc.Alerts), MaxAlerts)
	}
	blocks := findBlocks(data, "alert")
	fc.AlertLines = make([]int, len(fc.Alerts))
	fc.AlertKeyLines = make([]map[string]int, len(fc.Alerts))
	for i := range fc.Alerts {
		if len(blocks) == len(fc.Alerts) {
			fc.AlertLines[i] = lineAt(data, blocks[i].start)
			fc.AlertKeyLines[i] = blockKeyLines(data, blocks[i])
		}
	}
	for i := range fc.Alerts {
		t := &fc.Alerts[i]
		if err := t.Check(); err != nil {
			line := fc.AlertLines[i]
			var ae *alertError
			if errors.As(err, &ae) && fc.AlertKeyLines[i][ae.key] > 0 {
				line = fc.AlertKeyLines[i][ae.key]
			}
			return fmt.Errorf("%s: %s: %w", where(path, line), AlertLabel(i, t.Name), err)
		}
	}
	return fc.AlertSettings.check(path, data)
}

// check validates [alerts].
func (s *AlertSettings) check(path, data string) error {
	at := func(key string) string { return where(path, tableKeyLine(data, "alerts", key)) }
	if s.Every != "" {
		d, err := time.ParseDuration(s.Every)
		if err != nil || d < time.Second {
			return fmt.Errorf("%s: [alerts] every %s: want a duration of at least 1s, e.g. 30s", at("every"), text.Quote(s.Every))
		}
	}
	if s.ExecTimeout != "" {
		d, err := time.ParseDuration(s.ExecTimeout)
		if err != nil || d <= 0 || d > MaxAlertExecTimeout {
			return fmt.Errorf("%s: [alerts] exec_timeout %s: want a duration from 1ms to %s", at("exec_timeout"), text.Quote(s.ExecTimeout), MaxAlertExecTimeout)
		}
	}
	s.Desktop = strings.ToLower(strings.TrimSpace(s.Desktop))
	if s.Desktop != "" && !slices.Contains(DesktopModes, s.Desktop) {
		return fmt.Errorf("%s: [alerts] desktop %s: want %s%s", at("desktop"), text.Quote(s.Desktop), strings.Join(DesktopModes, ", "), didYouMean(s.Desktop, DesktopModes))
	}
	for i, a := range s.Exec {
		if strings.TrimSpace(a) == "" {
			return fmt.Errorf("%s: [alerts] exec: argument %d is empty; exec is a program and its arguments, no shell", at("exec"), i+1)
		}
	}
	return nil
}

// AlertLabel names an [[alert]] in a message: by its name, or by its
// position when it has none.
func AlertLabel(i int, name string) string {
	if name == "" {
		return fmt.Sprintf("[[alert]] number %d", i+1)
	}
	return "[[alert]] " + text.Quote(name)
}

// AlertWhere is "file:line" of key in the i-th [[alert]] (its header's
// line when the key is not written), for the messages of what is checked
// after loading (a symbol the sandbox does not list).
func (fc File) AlertWhere(i int, key string) string {
	line := 0
	if i < len(fc.AlertLines) {
		line = fc.AlertLines[i]
	}
	if i < len(fc.AlertKeyLines) && fc.AlertKeyLines[i][key] > 0 {
		line = fc.AlertKeyLines[i][key]
	}
	return where(fc.Service.Path, line)
}

func where(path string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", path, line)
	}
	return path
}

// unknownAlertKey words an unknown key of an [[alert]] or [alerts]: the
// file, its line, the nearest known key and the keys there are. ok is
// false for a key elsewhere (the generic message says it).
func unknownAlertKey(path, data string, key []string) (error, bool) {
	switch {
	case len(key) == 2 && key[0] == "alert":
		line := 0
		for _, b := range findBlocks(data, "alert") {
			if l := blockKeyLine(data, b, key[1]); l > 0 {
				line = l
				break
			}
		}
		return fmt.Errorf("%s: [[alert]]: unknown key %s%s (an [[alert]] takes %s)",
			where(path, line), echoKey(key[1]), didYouMean(key[1], AlertKeys), strings.Join(AlertKeys, ", ")), true
	case len(key) == 2 && key[0] == "alerts":
		known := []string{"every", "exec", "exec_timeout", "desktop", "bell"}
		return fmt.Errorf("%s: [alerts]: unknown key %s%s (known: %s)",
			where(path, tableKeyLine(data, "alerts", key[1])), echoKey(key[1]), didYouMean(key[1], known), strings.Join(known, ", ")), true
	}
	return nil, false
}

// lineAt is the line number (from 1) of byte offset at.
func lineAt(data string, at int) int { return strings.Count(data[:min(at, len(data))], "\n") + 1 }

// blockKeyLine is the line of key in block b, 0 when it is not found.
func blockKeyLine(data string, b scanBlock, key string) int { return blockKeyLines(data, b)[key] }

// blockKeyLines are the lines of the keys in block b.
func blockKeyLines(data string, b scanBlock) map[string]int {
	out := map[string]int{}
	for _, l := range tomlLines(data) {
		if l.at < b.start || l.at >= b.end || l.cont {
			continue
		}
		if k := lineKey(l.text); k != "" {
			out[k] = lineAt(data, l.at)
		}
	}
	return out
}

// tableKeyLine is the line of key in the [table] table, 0 when not found.
func tableKeyLine(data, table, key string) int {
	in := false
	for _, l := range tomlLines(data) {
		if h, ok := l.header(); ok {
			in = !h.array && h.key == table
			continue
		}
		if in && !l.cont && lineKey(l.text) == key {
			return lineAt(data, l.at)
		}
	}
	return 0
}

// lineKey is the bare or quoted key a key/value line starts with.
func lineKey(line string) string {
	k, _, ok := strings.Cut(strings.TrimSpace(line), "=")
	if !ok {
		return ""
	}
	return strings.Trim(strings.TrimSpace(k), `"'`)
}
