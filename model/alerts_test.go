package model

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/alert"
	"chainwatch/feed"
	"chainwatch/model/alerts"
	"chainwatch/model/common"
	"chainwatch/model/link"
	"chainwatch/model/modeltest"
)

// alertRig is an App whose monitor evaluates alert rules (none at first),
// on the scripted monitor, at 160x48, with what it saves recorded.
func alertRig(t *testing.T) (*rig, *alert.Engine, *[]alert.Rule) {
	t.Helper()
	c := &clock{t: testNow}
	cfg, s := scripted(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark"})
	log, err := alert.OpenLog(filepath.Join(t.TempDir(), "alerts.jsonl"), 0)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := alert.New(alert.Options{Monitor: cfg.Monitor, Fetcher: s, Log: log, Now: c.Now}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	eng.Start()
	var saved []alert.Rule
	cfg.Alerts = eng
	cfg.SaveAlert = func(_ string, r alert.Rule) error { saved = append(saved, r); return nil }
	r := &rig{tb: t, a: New(cfg), s: s}
	r.a.Init()
	r.a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	return r, eng, &saved
}

func typeText(a *App, s string) {
	for _, c := range s {
		a.Update(runeKey(c))
	}
}

// TestAlertFromTheLadder: A on a ladder row proposes a rule for its
// contract, with what it costs before it is armed; enter arms it and
// writes it to the config file; the next chain that crosses the level
// fires it within the refresh that brings it: a notice on the status bar,
// and on the alerts page the rule and the event the log holds.
func TestAlertFromTheLadder(t *testing.T) {
	r, eng, saved := alertRig(t)
	loadRig(t, r, testNow)
	d, ok := r.a.ws().Chain().Selected()
	if !ok {
		t.Fatal("no contract under the cursor")
	}
	r.a.Update(runeKey('A'))
	if _, ok := r.a.overlay.(common.Floating); !ok || helpOpen(r.a) {
		t.Fatalf("A opened %T, want the alert dialog", r.a.overlay)
	}
	frame := ansi.Strip(r.a.drawAt(testNow))
	for _, want := range []string{"New alert · " + d.Contract.OSI, "‹mid›", "above", "on screen: 0 pts now"} {
		if !strings.Contains(frame, want) {
			t.Fatalf("the dialog lacks %q:\n%s", want, frame)
		}
	}
	typed := strconv.FormatFloat(d.Contract.Mid+0.005, 'f', 3, 64)
	level, _ := strconv.ParseFloat(typed, 64)
	typeText(r.a, typed)
	r.a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if r.a.overlay != nil {
		t.Fatalf("enter left the dialog open:\n%s", ansi.Strip(r.a.drawAt(testNow)))
	}
	sts := eng.Statuses(testNow)
	if len(sts) != 1 || sts[0].Kind != alert.KindMid || sts[0].Contract != d.Contract.OSI || sts[0].Level != level || !sts[0].Above ||
		len(*saved) != 1 || (*saved)[0].Name != sts[0].Name {
		t.Fatalf("armed %+v, saved %+v", sts, *saved)
	}
	r.pump()
	// Word of a rule armed is no warning: a note, drawn without the ⚠.
	if got := r.a.statusData(testNow); !strings.Contains(got.Note, "alert armed: "+sts[0].Name) || got.Err != "" {
		t.Errorf("status bar note %q, error %q", got.Note, got.Err)
	}
	if bar := ansi.Strip(r.a.statusLine(160, testNow)); strings.Contains(bar, "⚠") {
		t.Errorf("a rule armed shows a warning: %q", bar)
	}

	// The next chain: every price a cent higher, the mid past the level.
	r.a.fetchNow(feed.FeedChain)
	r.take(feed.FeedChain).Answer(feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 1), Resp: okResp(4)})
	until[feed.ChainMsg](r) // the event comes before the chain that brought it
	if got := r.a.statusData(testNow).Err; !strings.Contains(got, "ALERT "+sts[0].Name) {
		t.Fatalf("status bar after the crossing %q", got)
	}
	r.a.Update(runeKey('a'))
	if r.a.topID() != common.PageAlerts {
		t.Fatalf("a opened page %d", r.a.topID())
	}
	frame = ansi.Strip(r.a.drawAt(testNow))
	logged := eng.Log().Recent(10)
	if len(logged) != 1 || !strings.Contains(frame, sts[0].Name) || !strings.Contains(frame, logged[0].Text) {
		t.Fatalf("the page, the log %+v:\n%s", logged, frame)
	}
}

// TestAlertFloodIsOneNotice: a thousand events in a second are one
// notice with the count, and one bell.
func TestAlertFloodIsOneNotice(t *testing.T) {
	c := &clock{t: testNow}
	sh := modeltest.Common(testNow)
	sh.Now = c.Now
	p := alerts.NewPage(sh, common.Config{})
	bells := 0
	var last common.Action
	for i := range 1000 {
		ev := alert.Event{Rule: "SPY blocks", Text: "block " + strconv.Itoa(i)}
		cmd, act := p.Update(alert.FiredMsg{Events: []alert.Event{ev}})
		if cmd != nil {
			if raw, ok := cmd().(tea.RawMsg); ok && strings.Contains(raw.Msg.(string), "\a") {
				bells++
			}
		}
		last = act
		c.t = c.t.Add(time.Millisecond / 2)
	}
	n, ok := last.(common.Notice)
	if !ok || !strings.HasPrefix(n.Text, "ALERT ×1,000 in 1s; the last: block 999") || bells != 1 {
		t.Errorf("notice %+v, %d bells", last, bells)
	}
}

// until hands the App what the monitor posts until a T comes, waiting at
// most 5 s.
func until[T any](r *rig) {
	r.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		m, ok := r.a.link.Sub.Next(ctx)
		if !ok {
			r.tb.Fatalf("no %T posted in 5 s", *new(T))
		}
		r.a.Update(link.Msg{Msg: m})
		if _, ok := m.(T); ok {
			return
		}
	}
}
