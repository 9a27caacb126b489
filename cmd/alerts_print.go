package cmd

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/scan"
)

// The rules and the log as rows of the one exporter, and --cost.

// ruleKeys are a rule's row keys.
var ruleKeys = []string{"name", "kind", "symbol", "contract", "direction", "level", "margin", "move", "from",
	"min_size", "min_premium", "ratio", "min_volume", "scan", "enabled", "armed", "points_per_hour", "line"}

// offlineEngine is an engine that fetches nothing, for what the rules
// would cost and what the log says of them.
func (o *AlertsOptions) offlineEngine(s alertsSetup) (*alert.Engine, func(), error) {
	mon := feed.NewMonitor(feed.MonitorOptions{})
	eng, err := o.engineOf(s, mon, nil, nil, time.Time{})
	if err != nil {
		mon.Close()
		return nil, nil, badInput(err)
	}
	return eng, func() { eng.Close(); mon.Close() }, nil
}

// checkSandboxRules checks the rules' symbols against the embedded
// sandbox's list when that is where they would run (no credentials), as
// --watch does: a rule on a symbol it does not list is the file's
// mistake (exit status 2), not a cost to quote. A service's symbols
// cannot be known without spending.
func (o *AlertsOptions) checkSandboxRules(s alertsSetup) error {
	if len(s.rules) == 0 {
		return nil
	}
	svc := o.Service
	svc.file, svc.probe = &s.fc.Service, true
	sess, err := resolveSession(svc, o.Getenv)
	if err != nil || sess.source != fromEmbeddedSandbox {
		return nil // said when the rules run
	}
	if _, err := alert.FromFile(s.fc, s.scans, api.Today(o.Now()), sandboxSymbols()); err != nil {
		return badInput(err)
	}
	return nil
}

// printRules lists the rules, each with its cost an hour with nothing on
// screen, and whether it is armed (the log says after a restart).
func (o *AlertsOptions) printRules(s alertsSetup) error {
	if err := o.checkSandboxRules(s); err != nil {
		return err
	}
	eng, done, err := o.offlineEngine(s)
	if err != nil {
		return err
	}
	defer done()
	e := Export{Keys: ruleKeys, Table: Table{Head: []string{"NAME", "KIND", "WATCHES", "WHEN", "ON", "STATE", "PTS/H"},
		Numeric: []bool{false, false, false, false, false, false, true}, Max: []int{40}}}
	for _, st := range eng.Statuses(o.Now()) {
		r := st.Rule
		dir := ""
		if r.Kind == alert.KindPrice || r.Kind == alert.KindBid || r.Kind == alert.KindAsk || r.Kind == alert.KindMid || r.Kind == alert.KindIV {
			dir = map[bool]string{true: "above", false: "below"}[r.Above]
		}
		state := "armed"
		if !st.Armed {
			state = "fired, waiting to re-arm"
		}
		if !r.Enabled {
			state = "off"
		}
		e.Records = append(e.Records, []any{r.Name, r.Kind.String(), r.Symbol, nilIf(r.Contract), nilIf(dir),
			nilZero(r.Level, dir != ""), nilZero(r.Margin, r.Margin != 0), nilZero(r.Move, r.Move != 0), nilIf(r.From),
			nilZero(float64(r.MinSize), r.MinSize != 0), nilZero(r.MinPremium, r.MinPremium != 0), nilZero(r.Ratio, r.Ratio != 0),
			nilZero(float64(r.MinVolume), r.MinVolume != 0), nilIf(r.Scan), r.Enabled, st.Armed, math.Round(st.Cost.OffScreen), r.Line})
		when := strings.TrimPrefix(r.Describe(), r.Target()+" ")
		e.Table.Rows = append(e.Table.Rows, []string{r.Name, r.Kind.String(), r.Target(), when, yesNo(r.Enabled), state,
			scan.GroupDigits(int64(st.Cost.OffScreen + 0.5))})
	}
	if err := o.Export.format().WriteContext(o.Context, o.Out, e); err != nil {
		return err
	}
	total, _ := eng.Plan()
	fmt.Fprintf(o.ErrOut, "chainwatch: %d alert rules; their own fetches spend up to %s points an hour with nothing on screen\n",
		len(s.rules), scan.GroupDigits(int64(total+0.5)))
	return nil
}

// printCost says what the rules' own fetches spend, rule by rule, and
// sends nothing.
func (o *AlertsOptions) printCost(s alertsSetup) error {
	if err := o.checkSandboxRules(s); err != nil {
		return err
	}
	eng, done, err := o.offlineEngine(s)
	if err != nil {
		return err
	}
	defer done()
	total, each := eng.Plan()
	for i, r := range s.rules {
		line := r.Name + ": " + each[i].Text()
		if !r.Enabled {
			line = r.Name + ": off, 0 pts"
		}
		fmt.Fprintln(o.Out, line)
	}
	fmt.Fprintf(o.Out, "%s points an hour in all with nothing on screen (%s a %g-hour session; the rules share a fetch of one thing, "+
		"a rule whose data the watch screen shows costs nothing, the budget may stretch the interval, and nothing is spent while the market is closed)\n",
		scan.GroupDigits(int64(total+0.5)), scan.GroupDigits(int64(total*feed.RegularSessionHours+0.5)), feed.RegularSessionHours)
	return nil
}

// logKeys are a log record's row keys (the NDJSON's).
var logKeys = []string{"event", "rule", "kind", "symbol", "contract", "value", "level", "direction", "time", "seq",
	"size", "price", "premium", "text", "fired_at"}

// printLog prints the log, oldest first.
func (o *AlertsOptions) printLog(s alertsSetup) error {
	log, err := alert.OpenLog(s.log, 0)
	if err != nil {
		return fmt.Errorf("the alerts' log %s: %w", s.log, err)
	}
	recs := log.Recent(1 << 30)
	e := Export{Keys: logKeys, Table: Table{Head: []string{"TIME", "EVENT", "RULE", "TEXT"}, Max: []int{0, 0, 40}}}
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		e.Records = append(e.Records, []any{r.Type, r.Rule, r.Kind, r.Symbol, nilIf(r.Contract), r.Value, r.Level, r.Direction,
			r.Time.Format(time.RFC3339Nano), r.Seq, r.Size, nilZero(r.Price, r.Price != 0), nilZero(r.Premium, r.Premium != 0), r.Text,
			r.FiredAt.Format(time.RFC3339Nano)})
		e.Table.Rows = append(e.Table.Rows, []string{r.Time.Format("2006-01-02 15:04:05"), r.Type, r.Rule, r.Text})
	}
	if err := o.Export.format().WriteContext(o.Context, o.Out, e); err != nil {
		return err
	}
	where := s.log
	if where == "" {
		where = "no state directory"
	}
	fmt.Fprintf(o.ErrOut, "chainwatch: %s records in %s\n", strconv.Itoa(len(recs)), where)
	return nil
}

func nilIf(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nilZero(v float64, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

func yesNo(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
