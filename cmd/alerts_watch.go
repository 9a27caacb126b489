package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
	"chainwatch/scan"
)

// watchAlerts runs the rules without a screen until Ctrl-C (status 0):
// the data monitor fetches what they need as the screen's feeds are
// fetched (within the config file's [budget], paused while the market is
// closed), and every event is printed once, one JSON object a line.
// Notices (a rule's data refused, a command killed, the pauses) go to
// stderr.
func (o *AlertsOptions) watchAlerts(s alertsSetup) error {
	ctx, stop := signal.NotifyContext(o.Context, os.Interrupt)
	defer stop()
	o.Context = ctx
	client, sess, err := o.connect(s.fc, s.mode)
	if err != nil {
		return err
	}
	defer sess.close()
	if sess.source == fromEmbeddedSandbox {
		// Its market is known: a symbol it does not list is the file's
		// mistake, said with its line before anything is fetched.
		if s.rules, err = alert.FromFile(s.fc, s.scans, api.Today(o.Now()), sandboxSymbols()); err != nil {
			return badInput(err)
		}
	}
	speed := 1.0
	if o.sandboxNow != nil {
		speed = o.SandboxSpeed
	}
	src := feed.Source{Client: client, Now: o.Now}
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: src, Clock: feed.RealClock{NowFunc: o.Now, Speed: speed}, Budget: budgetOf(s.fc)})
	defer mon.Close()
	// From the start on the service's clock, or --since today.
	since := o.Now()
	if s.since != 0 {
		since = s.since.On(api.Today(since))
	}
	eng, err := o.engineOf(s, mon, src, client, since)
	if err != nil {
		return badInput(err)
	}
	defer eng.Close()
	sub := mon.Subscribe()
	for _, st := range eng.Statuses(o.Now()) {
		if st.Enabled {
			fmt.Fprintf(o.ErrOut, "chainwatch: armed %s: %s\n", st.Name, st.Cost.Text())
		}
	}
	eng.Start()
	p := alertPrinter{out: o.Out, errOut: o.ErrOut, every: s.set.Every, now: o.Now, mode: s.mode}
	if isTerminal(o.ErrOut) {
		p.desk = alert.DetectDesktop(o.Getenv, s.set.Desktop)
	}
	for {
		msg, ok := sub.Next(ctx)
		if !ok || ctx.Err() != nil {
			return nil
		}
		if err := p.print(msg); err != nil {
			return err
		}
	}
}

// alertPrinter writes what the engine posts: events to stdout, the rest
// to stderr.
type alertPrinter struct {
	out, errOut io.Writer
	every       time.Duration
	now         func() time.Time
	mode        api.Mode
	desk        alert.Desktop
	notified    time.Time
	paused      bool
}

func (p *alertPrinter) print(msg any) error {
	switch m := msg.(type) {
	case alert.FiredMsg:
		var b []byte
		for i := range m.Events {
			r := alert.Record{Type: alert.Fired, Event: m.Events[i]}
			b = append(append(b, r.JSON()...), '\n')
		}
		if _, err := p.out.Write(b); err != nil {
			return err // the pipe is gone
		}
		p.desktop(m.Events)
	case alert.NoticeMsg:
		fmt.Fprintf(p.errOut, "chainwatch: %s\n", m.Text)
	case alert.RunMsg:
		p.run(m)
	}
	return nil
}

// desktop sends one notification for events, at most one a second.
func (p *alertPrinter) desktop(evs []alert.Event) {
	now := time.Now()
	if p.desk.Proto == "" || now.Sub(p.notified) < time.Second || len(evs) == 0 {
		return
	}
	p.notified = now
	body := evs[len(evs)-1].Text
	if len(evs) > 1 {
		body = fmt.Sprintf("%d alerts; the last: %s", len(evs), body)
	}
	fmt.Fprint(p.errOut, p.desk.Sequence("chainwatch alert", body))
}

// run says what a run of the rules' own fetches says a person should
// know: a failure, an interval the budget stretched, a pause.
func (p *alertPrinter) run(m alert.RunMsg) {
	stamp := m.At.In(api.Eastern).Format("15:04:05") + " ET"
	if m.Err != nil {
		fmt.Fprintf(p.errOut, "chainwatch: %s: %s\n", stamp, api.Describe(m.Err, "alerts"))
	}
	if m.Every > p.every {
		fmt.Fprintf(p.errOut, "chainwatch: the alerts' fetches (%d points a run) would spend more than the budget allows every %s; fetching every %s\n",
			m.Points, p.every, roundWait(m.Every))
		p.every = m.Every
	}
	now := p.now()
	closed := !nyse.SessionLive(now, p.mode)
	if wait := m.Next.Sub(now); closed && !p.paused && wait > m.Every {
		fmt.Fprintf(p.errOut, "chainwatch: %s\n", closedText(now, p.mode, "the alerts' fetches are"))
	}
	p.paused = closed
}

// sandboxSymbols are the embedded sandbox's symbols, for the rules' check.
func sandboxSymbols() alert.Symbols {
	u := market.Default()
	var known []string
	for _, s := range u.All() {
		known = append(known, s.Symbol)
	}
	return alert.Symbols{Has: func(sym string) bool { _, ok := u.Lookup(sym); return ok }, Known: known}
}

// scanRunner runs a scan rule's scan on client, as `chainwatch scan` does.
func scanRunner(client *api.Client, mode api.Mode, now func() time.Time) func(context.Context, scan.Scan) (scan.Outcome, error) {
	return func(ctx context.Context, s scan.Scan) (scan.Outcome, error) {
		return scan.Run(ctx, client, nil, s, mode, now())
	}
}

// connect opens the session and its client, on the service's clock from
// then on, as execute does for the other commands (the rules watch today:
// no store of past days), recording its answers as they do; the caller
// closes the session, and with it the recorder.
func (o *AlertsOptions) connect(fc config.File, mode api.Mode) (*api.Client, *session, error) {
	svc := o.Service
	svc.file = &fc.Service
	svc.sandboxNow = o.Now // the embedded sandbox runs on this command's clock
	sess, err := resolveSession(svc, o.Getenv)
	if err != nil {
		return nil, nil, err
	}
	if o.sandboxNow != nil && sess.source != fromEmbeddedSandbox {
		sess.close()
		return nil, nil, badInput(fmt.Errorf("--sandbox-clock sets the embedded sandbox's clock, but chainwatch is using %s", sess.source))
	}
	rec := openRecorder(o.Getenv, o.NoRecord, fc.Record, sess, o.ErrOut)
	closeSession := sess.close
	sess.close = func() error {
		closeRecorder(rec, o.ErrOut)
		return closeSession()
	}
	client, err := api.NewClient(append(sess.clientOptions(mode, o.Now), withRecorder(rec)...)...)
	if err != nil {
		sess.close()
		return nil, nil, err
	}
	if sess.source == fromEmbeddedSandbox {
		// Events from a simulated market must never pass for real ones.
		fmt.Fprintln(o.ErrOut, "chainwatch: no credentials: answering from the embedded sandbox's simulated market")
	}
	o.Now = serviceClock(o.Context, client)
	return client, sess, nil
}
