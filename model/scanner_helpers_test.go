package model

import (
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/model/common"
	"chainwatch/model/link"
	"chainwatch/sandbox"
	"chainwatch/sandbox/sim"
)

// The scanner's tests drive the whole App synchronously: a key goes to
// App.Update, and the commands it returns are run and their messages fed
// back, as bubbletea would, until nothing is left. huh works that way: a
// key in a form returns commands whose messages move the focus or bring
// the dynamic suggestions, and a form only changes when they come back.

// maxDriveMsgs bounds one drive: a form that kept sending itself
// messages would otherwise loop for ever.
const maxDriveMsgs = 3000

// cmdTimeout bounds one command. Commands that only wait (a tick, a
// cursor blink) are skipped without running; anything else that has not
// answered by then is skipped too, and said so in the log. It is generous
// because a scan over loopback under the race detector is not instant.
const cmdTimeout = 15 * time.Second

// waiting are the commands that only sleep and then say "time passed":
// the drive skips them, since a test's time does not pass.
var waiting = []string{
	"charm.land/bubbletea/v2.Tick.",
	"charm.land/bubbletea/v2.Every.",
	"charm.land/bubbles/v2/cursor.(*Model).Blink.",
	"chainwatch/model/link.(*Link).Listen.", // the monitor's mailbox: a test answers and pumps it (rig)
}

func onlyWaits(cmd tea.Cmd) bool {
	f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer())
	if f == nil {
		return false
	}
	name := f.Name()
	for _, w := range waiting {
		if strings.HasPrefix(name, w) {
			return true
		}
	}
	return false
}

// scanDriver feeds an App messages and the messages of their commands.
type scanDriver struct {
	t *testing.T
	a *App
	// drop, when set, leaves out messages the test does not want (the
	// poller's, for a screen that must not change under a golden).
	drop func(tea.Msg) bool
	// seen is every message the App received, in order.
	seen []tea.Msg
	// rig answers the App's requests of the data monitor (scannerApp).
	rig *rig
}

func newScanDriver(t *testing.T, a *App) *scanDriver { return &scanDriver{t: t, a: a} }

// send delivers msgs and everything that follows from them.
func (d *scanDriver) send(msgs ...tea.Msg) {
	d.t.Helper()
	queue := append([]tea.Msg(nil), msgs...)
	for n := 0; len(queue) > 0; n++ {
		if n >= maxDriveMsgs {
			d.t.Fatalf("more than %d messages in one drive; the last: %T", maxDriveMsgs, queue[0])
		}
		msg := queue[0]
		queue = queue[1:]
		if msg == nil || d.drop != nil && d.drop(msg) {
			continue
		}
		d.seen = append(d.seen, msg)
		_, cmd := d.a.Update(msg)
		queue = append(queue, d.run(cmd)...)
	}
}

// run runs a command and returns its messages, batches and sequences
// opened up: a batch's commands run at once, a sequence's in order.
func (d *scanDriver) run(cmd tea.Cmd) []tea.Msg {
	d.t.Helper()
	if cmd == nil || onlyWaits(cmd) {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(cmdTimeout):
		d.t.Logf("a command (%s) did not answer in %s: skipped", funcName(cmd), cmdTimeout)
		return nil
	}
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		return d.runAll([]tea.Cmd(m))
	}
	if cmds, ok := sequenceOf(msg); ok {
		var out []tea.Msg
		for _, c := range cmds {
			out = append(out, d.run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// runAll runs a batch's commands at the same time, keeping their order.
func (d *scanDriver) runAll(cmds []tea.Cmd) []tea.Msg {
	res := make([][]tea.Msg, len(cmds))
	done := make(chan int, len(cmds))
	for i, c := range cmds {
		// t.Helper and t.Logf are safe from other goroutines.
		go func() { res[i] = d.run(c); done <- i }()
	}
	for range cmds {
		<-done
	}
	var out []tea.Msg
	for _, r := range res {
		out = append(out, r...)
	}
	return out
}

// sequenceOf opens bubbletea's unexported sequence message, a slice of
// commands to run one after the other.
func sequenceOf(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i], _ = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

func funcName(cmd tea.Cmd) string {
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		return f.Name()
	}
	return "?"
}

// keys presses named keys: "ctrl+o", "enter", "esc", "pgup", "pgdown",
// "tab", "shift+tab", "left", "right", "up", "down", "space", a single
// character, or "S".
func (d *scanDriver) keys(names ...string) {
	d.t.Helper()
	for _, n := range names {
		d.send(namedKey(d.t, n))
	}
}

// typeText types s as a terminal would, one key per character.
func (d *scanDriver) typeText(s string) {
	d.t.Helper()
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// keyMsg is the key press of a name as the keymap spells it.
func namedKey(t *testing.T, name string) tea.KeyPressMsg {
	t.Helper()
	named := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown, "space": tea.KeySpace,
		"backspace": tea.KeyBackspace,
	}
	var mod tea.KeyMod
	base := name
	switch {
	case strings.HasPrefix(name, "ctrl+"):
		mod, base = tea.ModCtrl, strings.TrimPrefix(name, "ctrl+")
	case strings.HasPrefix(name, "alt+"):
		mod, base = tea.ModAlt, strings.TrimPrefix(name, "alt+")
	case strings.HasPrefix(name, "shift+"):
		mod, base = tea.ModShift, strings.TrimPrefix(name, "shift+")
	}
	if code, ok := named[base]; ok {
		k := tea.KeyPressMsg{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return k
	}
	rs := []rune(base)
	if len(rs) != 1 {
		t.Fatalf("no key %q", name)
	}
	k := tea.KeyPressMsg{Code: rs[0], Mod: mod}
	if mod == 0 {
		k.Text = base
	}
	if k.String() != name {
		t.Fatalf("key %q reads as %q", name, k.String())
	}
	return k
}

// dropPolls leaves out what the data monitor posts, so the watch screen
// shows nothing unless a test answers it (d.rig): the sandbox's points
// are then the scanner's.
func dropPolls(m tea.Msg) bool {
	_, ok := m.(link.Msg)
	return ok
}

// count is how many messages of type T the App received.
func countMsgs[T tea.Msg](d *scanDriver) int {
	n := 0
	for _, m := range d.seen {
		if _, ok := m.(T); ok {
			n++
		}
	}
	return n
}

// screen is the App's frame now, without escape codes.
func (d *scanDriver) screen() string { return ansi.Strip(d.a.drawAt(d.a.sh.Now())) }

// scannerApp is an App on the in-process sandbox (loopback HTTP, OAuth2,
// the tests' stopped clock) at w x h, not started: nothing polls until a
// test starts it, so the points the sandbox counts are the scanner's.
func scannerApp(t *testing.T, cfg Config, w, h int) (*App, *scanDriver) {
	t.Helper()
	sh := startMarketSandbox(t)
	cfg.Client, cfg.Now = sh.Client, sh.Now
	if cfg.Source == "" {
		cfg.Source = "SANDBOX"
	}
	if cfg.Symbol == "" {
		cfg.Symbol = "SPY"
	}
	if cfg.Theme == "" {
		cfg.Theme = "dark"
	}
	r := newRig(t, cfg)
	a := r.a
	d := newScanDriver(t, a)
	d.rig = r
	d.drop = dropPolls
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return a, d
}

// sharedMarket is one simulated market for every scanner test's sandbox.
// The market is safe for concurrent use and caches what it computes; the
// first scan of a market prices every optionable symbol, which under the
// race detector takes seconds, so the tests share that work. Each test
// still has a sandbox of its own: its points and rate are its own.
var sharedMarket = sync.OnceValue(func() *sim.Market {
	return sim.New(sim.Config{Now: func() time.Time { return testNow }})
})

// startMarketSandbox is startTestSandbox on the shared market: an
// in-process sandbox on 127.0.0.1, real OAuth2 client credentials over
// loopback HTTP, the tests' stopped clock.
func startMarketSandbox(t *testing.T) *common.Common {
	t.Helper()
	return startSandboxWith(t, sandbox.Config{Market: sharedMarket()})
}

// openScanner presses S and waits for the field list (the drive runs the
// metadata fetch), so formulas are checked as they are typed.
func (d *scanDriver) openScanner() {
	d.t.Helper()
	d.keys("S")
	if !d.a.scan.IsOpen() {
		d.t.Fatal("S did not open the scanner")
	}
	if !d.a.scan.State().Checked {
		d.t.Fatalf("no field list after opening: %v", d.a.scan.State().MetaErr)
	}
}

// pointsUsed is the month's points the sandbox has counted, as it
// reports them on a free request (the scanner's field list, 0 points).
func pointsUsed(t *testing.T, c *api.Client) int64 {
	t.Helper()
	_, resp, err := c.ScannerMetadata(t.Context(), api.ReferenceParams{Mode: api.Live})
	if err != nil || resp == nil || !resp.PointsUsed.Valid {
		t.Fatalf("points used: %v %+v", err, resp)
	}
	return resp.PointsUsed.V
}

// tooManyServer answers every request with a 429 and a Retry-After, as
// the service does past its per-second rate: on 127.0.0.1, and it speaks
// enough OAuth2 for the client to get that far.
func tooManyServer(t *testing.T, retryAfter string) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", retryAfter)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message":"rate limit exceeded"}`))
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}
