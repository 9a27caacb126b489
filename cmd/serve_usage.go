package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/serve"
	"chainwatch/text"
)

// ServeUsageOptions are `chainwatch serve usage`'s inputs.
type ServeUsageOptions struct {
	Out, ErrOut io.Writer
	Getenv      func(string) string
	Now         func() time.Time
	Context     context.Context
	Month       string // YYYY-MM; "" the current one (Eastern)
	Export      exportFlags
}

// NewCmdServeUsage is `chainwatch serve usage`: the month's sessions per
// key from the usage ledger serve keeps, the figures a desk reports to
// its data provider. runF replaces serveUsageRun in tests of the flags.
func NewCmdServeUsage(deps Deps, runF func(*ServeUsageOptions) error) *cobra.Command {
	o := &ServeUsageOptions{Getenv: deps.getenv, Now: deps.now}
	if o.Now == nil {
		o.Now = time.Now
	}
	cmd := &cobra.Command{
		Use:   "usage [--month YYYY-MM]",
		Short: "Report the month's sessions per key: sessions, real-time minutes, devices",
		Long: `usage reads the ledger in which serve writes down every session, screen or
command, when it opens and when it ends (the state directory's serve/usage, a
file a month), and prints per key the month's sessions, the minutes of those
that could see real-time data, the distinct devices (client addresses) and the
hosts: what a desk reports to its data provider (OPRA asks for every user and
device that could see real-time data). Months are Eastern. A session across a
month's end counts in both, its minutes clipped to each; one without an end (a
crash, or still open) counts to now in the current month, else to its host's
last record.`,
		Example: `  chainwatch serve usage
  chainwatch serve usage --month 2026-11 --json
  chainwatch serve usage --jq '.[] | select(.real_time_minutes > 0) | .key'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out, o.ErrOut, o.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
			if runF != nil {
				return runF(o)
			}
			return serveUsageRun(o)
		},
	}
	cmd.Flags().StringVar(&o.Month, "month", "", "the month to report, YYYY-MM (default the current one, Eastern)")
	addExportFlags(cmd, &o.Export)
	return cmd
}

// serveUsageKeys are serve usage's fields (serve.KeyUsage's JSON names).
var serveUsageKeys = []string{"key", "sessions", "real_time_minutes", "devices", "hosts", "device_list"}

func serveUsageRun(o *ServeUsageOptions) error {
	format := o.Export.format()
	if err := format.Check(serveUsageKeys); err != nil {
		return err
	}
	now := o.Now()
	month := now
	if o.Month != "" {
		m, err := time.ParseInLocation("2006-01", strings.TrimSpace(o.Month), api.Eastern)
		if err != nil {
			return badInput(fmt.Errorf("--month %s: want a month YYYY-MM, e.g. %s", text.Quote(o.Month), serve.UsageMonth(now)))
		}
		month = m
	}
	ledger, err := usageLedger(config.OpenState(o.Getenv))
	if err != nil {
		return err
	}
	// The month's file and its neighbours': a session across a month's
	// end has its start in one and its end in the other.
	from, _ := serve.MonthBounds(month)
	var recs []serve.UsageRecord
	for _, t := range []time.Time{from.AddDate(0, -1, 0), from, from.AddDate(0, 1, 0)} {
		got, err := ledger.Month(serve.UsageMonth(t))
		var dmg *serve.DamagedLines
		switch {
		case errors.As(err, &dmg):
			fmt.Fprintf(o.ErrOut, "chainwatch: warning: %s\n", text.OneLine(err.Error(), 0))
		case err != nil:
			return err
		}
		recs = append(recs, got...)
	}
	rep := serve.Report(recs, month, now)
	e := Export{Keys: serveUsageKeys, Table: Table{Head: []string{"KEY", "SESSIONS", "REAL-TIME MIN", "DEVICES", "HOSTS"},
		Numeric: []bool{false, true, true, true, false}, Max: []int{40, 0, 0, 0, 60}}}
	sessions := 0
	for _, k := range rep {
		e.Records = append(e.Records, []any{k.Key, k.Sessions, k.RealTimeMinutes, k.Devices, k.Hosts, k.DeviceList})
		e.Table.Rows = append(e.Table.Rows, []string{k.Key, strconv.Itoa(k.Sessions),
			strconv.FormatFloat(k.RealTimeMinutes, 'f', 1, 64), strconv.Itoa(k.Devices), strings.Join(k.Hosts, " ")})
		sessions += k.Sessions
	}
	if err := format.WriteContext(o.Context, o.Out, e); err != nil {
		return err
	}
	fmt.Fprintf(o.ErrOut, "chainwatch: %s (Eastern): %s, %s, in %s\n", serve.UsageMonth(from),
		plural(len(rep), "key"), plural(sessions, "session"), ledger.Dir())
	return nil
}
