package cmd

import (
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/serve"
)

// The desk's side of the usage ledger (serve/usage.go): every session,
// screen or command, is written down when it opens and when it ends, with
// its key, this host, the client's address and whether it could see
// real-time data. `chainwatch serve usage` reads it back.

// usageDir is the ledger's directory under the state directory's serve
// directory, beside the keys' own (a key named "usage" shares it: the
// ledger's YYYY-MM.jsonl are no names of a key's files).
const usageDir = "usage"

// usageLedger is the ledger in the state directory, where serve writes it
// and serve usage reads it.
func usageLedger(state config.State) (*serve.UsageLedger, error) {
	dir := state.In("serve").In(usageDir).Dir()
	if dir == "" {
		return nil, errors.New("no state directory to keep the usage ledger in (set XDG_STATE_HOME or HOME)")
	}
	return serve.OpenUsage(dir), nil
}

// deskUsage is the desk's default sink: the file ledger, or none (said in
// the log) when there is no state directory.
func deskUsage(state config.State, log *slog.Logger) serve.UsageSink {
	l, err := usageLedger(state)
	if err != nil {
		log.Warn("sessions are not recorded for the usage report", "why", err)
		return nil
	}
	log.Info("usage ledger", "dir", l.Dir())
	return l
}

// hostName is this host's name in the ledger.
func hostName() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "unknown"
}

// recordUsage writes a session's start and returns what writes its end
// (once). A record that cannot be written is said in the log and the
// session goes on: the ledger is the desk's report, not the trader's
// access.
func (d *desk) recordUsage(u serve.User, kind string, realTime bool) (end func()) {
	if d.usage == nil {
		return func() {}
	}
	r := serve.UsageRecord{Event: serve.UsageStart, ID: serve.NewUsageID(), Key: u.Name, Host: d.host,
		Device: u.Addr, Kind: kind, RealTime: realTime, At: d.base.Now()}
	d.appendUsage(r)
	var once sync.Once
	return func() {
		once.Do(func() {
			r.Event, r.At = serve.UsageEnd, d.base.Now()
			d.appendUsage(r)
		})
	}
}

func (d *desk) appendUsage(r serve.UsageRecord) {
	if err := d.usage.Append(r); err != nil {
		d.log.Warn("a session's usage record is lost", "key", r.Key, "event", r.Event, "error", err)
	}
}

// screenRealTime: a screen could always see real-time data, whatever
// mode it opens in, since a key switches it to live.
const screenRealTime = true

// commandRealTime says whether a command line could see real-time data:
// not one that reads none (version, help) or is refused; an mcp session
// always (the agent chooses the mode of each call); else unless its mode
// is delayed: --mode, else the config file's mode, as the command takes
// it (headless.dataMode). A mode that does not parse fails the command,
// which sees nothing, but is counted as live: the ledger errs on the side
// of a minute too many.
func (d *desk) commandRealTime(args []string) bool {
	switch {
	case checkServed(args) != "", args[0] == "version", args[0] == "help":
		return false
	case args[0] == "mcp":
		return true
	}
	if v, ok := modeArg(args[1:]); ok {
		m, err := config.ParseMode(v)
		return err != nil || m != api.Delayed
	}
	fc, _, _, err := configFile("", false, d.getenv)
	if err != nil {
		return true
	}
	m, err := config.ParseMode(fc.Mode)
	return err != nil || m != api.Delayed
}

// modeArg is the last --mode value before a "--", as the flag parser
// takes it.
func modeArg(args []string) (string, bool) {
	v, ok := "", false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return v, ok
		case a == "--mode" && i+1 < len(args):
			v, ok = args[i+1], true
			i++
		default:
			if rest, found := strings.CutPrefix(a, "--mode="); found {
				v, ok = rest, true
			}
		}
	}
	return v, ok
}
