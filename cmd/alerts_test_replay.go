package cmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/record"
	"chainwatch/text"
)

// newCmdAlertsTest runs the rules over a recorded day.
func newCmdAlertsTest(deps Deps) *cobra.Command {
	o := &AlertsOptions{headless: newHeadless(deps)}
	o.SandboxSpeed = 1 // no sandbox: the replay has a clock of its own
	var day string
	var speed float64
	cmd := &cobra.Command{
		Use:   "test --replay D",
		Short: "Run the alert rules over a recorded day and print what would have fired, and when",
		Long: `test runs the config file's [[alert]] rules over a day the flight recorder
recorded (chainwatch record list), with the same engine and the same
once-per-crossing rule as the screen and alerts --watch: the rules' data is
answered from the recording as at a clock that runs through the recorded span,
--speed times as fast as real time (default: the span in about 20 seconds).
Nothing is sent, no point spent, no command of --exec or a rule's exec is run and
the fired-event log is not written. Each event is a row: the data's time, the
rule, the symbol and what happened.`,
		Example: `  chainwatch alerts test --config blocks.toml --replay 2026-11-24
  chainwatch alerts test --replay 2026-11-24 --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.bind(c)
			o.changed = c.Flags().Changed
			return o.testAlerts(day, speed)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&day, "replay", "", "the recorded day to run the rules over, YYYY-MM-DD (required)")
	fl.Float64Var(&speed, "speed", 0, "how many times as fast as real time the replay's clock runs (default: the recorded span in about 20 s)")
	fl.StringVar(&o.ConfigPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	addExportFlags(cmd, &o.Export)
	_ = cmd.MarkFlagRequired("replay")
	return cmd
}

// alertTestKeys are the rows' fields.
var alertTestKeys = []string{"time", "rule", "kind", "symbol", "contract", "text"}

func (o *AlertsOptions) testAlerts(dayFlag string, speed float64) error {
	format := o.Export.format()
	if err := format.Check(alertTestKeys); err != nil {
		return err
	}
	d, err := api.ParseDate(dayFlag)
	if err != nil || !d.Valid() {
		return badInput(fmt.Errorf("--replay %s: want a recorded day YYYY-MM-DD", text.Quote(dayFlag)))
	}
	dir, err := config.RecordDir(o.Getenv)
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	day, err := record.OpenDay(dir, d)
	if errors.Is(err, record.ErrNoDay) {
		return noData(fmt.Errorf("%w; chainwatch record list shows the recorded days", err))
	}
	if err != nil {
		return err
	}
	defer day.Close()
	first, last := day.Span()
	if speed <= 0 {
		speed = max(1, last.Sub(first).Seconds()/20)
	}
	clock := newReplayClock(first, speed)
	clock.first, clock.last = first, last
	o.Now = clock.Now
	s, err := o.setupAlerts()
	if err != nil {
		return err
	}
	// A test fires nothing outside: no command, no log entry.
	s.log, s.set.Exec = "", nil
	for i := range s.rules {
		s.rules[i].Exec = nil
	}
	client, err := api.NewClient(api.WithBaseURL(replayBaseURL), api.WithMode(s.mode), api.WithClock(clock.Now), api.WithReplay(day.At(clock.Now)))
	if err != nil {
		return err
	}
	src := feed.Source{Client: client, Now: clock.Now}
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: src, Clock: feed.RealClock{NowFunc: clock.Now, Speed: speed}, Budget: budgetOf(s.fc)})
	defer mon.Close()
	eng, err := o.engineOf(s, mon, src, client, first)
	if err != nil {
		return badInput(err)
	}
	defer eng.Close()
	sub := mon.Subscribe()
	eng.Start()
	fmt.Fprintf(o.ErrOut, "chainwatch: replaying %s from %s to %s at x%g: nothing is sent, 0 points\n", d,
		first.In(api.Eastern).Format("15:04:05"), last.In(api.Eastern).Format("15:04:05"), speed)
	events := o.collect(sub, clock, last, speed)
	e := Export{Keys: alertTestKeys, Table: Table{Head: []string{"TIME", "RULE", "KIND", "SYMBOL", "CONTRACT", "WHAT"}, Max: []int{0, 24, 0, 0, 0, 80}}}
	for _, ev := range events {
		at := ev.Time.In(api.Eastern).Format("15:04:05")
		e.Records = append(e.Records, []any{ev.Time.In(api.Eastern).Format(time.RFC3339), ev.Rule, ev.Kind, ev.Symbol, ev.Contract, ev.Text})
		e.Table.Rows = append(e.Table.Rows, []string{at, ev.Rule, ev.Kind, ev.Symbol, ev.Contract, text.OneLine(ev.Text, 0)})
	}
	if err := format.WriteContext(o.Context, o.Out, e); err != nil {
		return err
	}
	fmt.Fprintf(o.ErrOut, "chainwatch: %s would have fired on %s\n", plural(len(events), "event"), d)
	return nil
}

// collect gathers the events the engine posts until the replay's clock is
// past the recorded span (and the fetches then in flight are answered).
func (o *AlertsOptions) collect(sub *feed.Subscription, clock *replayClock, last time.Time, speed float64) []alert.Event {
	var events []alert.Event
	grace := time.Duration(float64(5*time.Second)/speed) + 2*time.Second
	ctx, cancel := context.WithTimeout(o.Context, time.Duration(float64(clock.last.Sub(clock.base)+time.Minute)/speed)+grace+time.Minute)
	defer cancel()
	end := time.Time{}
	for {
		if end.IsZero() && clock.Now().After(last) {
			end = time.Now().Add(grace)
		}
		if !end.IsZero() && time.Now().After(end) {
			return events
		}
		wait, stop := context.WithTimeout(ctx, 200*time.Millisecond)
		msg, ok := sub.Next(wait)
		stop()
		if ctx.Err() != nil {
			return events
		}
		switch m := msg.(type) {
		case alert.FiredMsg:
			events = append(events, m.Events...)
		case alert.NoticeMsg:
			fmt.Fprintf(o.ErrOut, "chainwatch: %s\n", m.Text)
		}
		_ = ok
	}
}
