package alert

import (
	"fmt"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/scan"
)

// Symbols tells whether the service lists a symbol, for a rule's check
// before anything is fetched; nil when that is known only from the
// service's first answer (a real service: a rule on a symbol it does not
// list then says so on the page and on stderr).
type Symbols struct {
	Has   func(symbol string) bool
	Known []string // for "did you mean"
}

// FromFile is the config file's rules (checked by config.Load), each
// checked further where the file alone cannot tell: a contract that has
// expired, a scan that is neither saved nor a preset, a symbol the
// service does not list, two rules of one name. Every error names the
// file and the rule's line.
func FromFile(fc config.File, scans []scan.Scan, today api.Date, syms Symbols) ([]Rule, error) {
	rules := make([]Rule, 0, len(fc.Alerts))
	seen := map[string]int{}
	for i, t := range fc.Alerts {
		r := FromTable(t)
		if len(fc.AlertLines) > i {
			r.Line = fc.AlertLines[i]
		}
		fail := func(key, format string, args ...any) error {
			return fmt.Errorf("%s: %s: %s", fc.AlertWhere(i, key), config.AlertLabel(i, t.Name), fmt.Sprintf(format, args...))
		}
		if j, dup := seen[strings.ToLower(r.Name)]; dup {
			return nil, fail("name", "the name %q is the alert's at line %d too; give one of them a name", r.Name, rules[j].Line)
		}
		seen[strings.ToLower(r.Name)] = i
		if r.Contract != "" {
			if o, _ := api.ParseOSI(r.Contract); o.Expiry < today {
				return nil, fail("contract", "contract %s expired on %s", r.Contract, o.Expiry)
			}
		}
		if r.Kind == KindScan {
			if _, ok := scan.Find(scans, r.Scan); !ok {
				return nil, fail("scan", "no saved scan or preset named %q%s", r.Scan, nearest(r.Scan, scanNames(scans)))
			}
		}
		if syms.Has != nil && r.Symbol != "" && !syms.Has(r.Symbol) {
			key := "symbol"
			if t.Symbol == "" {
				key = "contract"
			}
			return nil, fail(key, "the service has no symbol %s%s", r.Symbol, nearest(r.Symbol, syms.Known))
		}
		r.Where = fc.AlertWhere(i, "contract")
		if t.Contract == "" {
			r.Where = fc.AlertWhere(i, "symbol")
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func nearest(w string, known []string) string {
	if n := config.NearestSymbol(w, known); n != "" {
		return "; did you mean " + n + "?"
	}
	return ""
}

// scanNames are the names a scan rule may give.
func scanNames(saved []scan.Scan) []string {
	var out []string
	for _, list := range [][]scan.Scan{saved, scan.Presets()} {
		for _, s := range list {
			out = append(out, s.Name)
		}
	}
	return out
}

// Settings are the [alerts] table's, with the defaults.
type Settings struct {
	Every       time.Duration
	Exec        []string
	ExecTimeout time.Duration
	Desktop     string // auto, osc9, osc777, off
	Bell        bool
}

// SettingsOf is fc's [alerts] (checked by config.Load).
func SettingsOf(fc config.File) Settings {
	a := fc.AlertSettings
	s := Settings{Every: config.AlertEvery, ExecTimeout: config.AlertExecTimeout, Desktop: "auto", Bell: true, Exec: a.Exec}
	if d, err := time.ParseDuration(a.Every); err == nil {
		s.Every = d
	}
	if d, err := time.ParseDuration(a.ExecTimeout); err == nil {
		s.ExecTimeout = d
	}
	if a.Desktop != "" {
		s.Desktop = a.Desktop
	}
	if a.Bell != nil {
		s.Bell = *a.Bell
	}
	return s
}
