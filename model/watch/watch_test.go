package watch

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/ui"
)

// Key presses as the terminal sends them.
var (
	keyUp    = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown  = tea.KeyPressMsg{Code: tea.KeyDown}
	keyRight = tea.KeyPressMsg{Code: tea.KeyRight}
)

func runeKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// pages is the watch screen and the vol page on the sandbox's SPY, at
// the size a 120x40 terminal gives them (the status bar's row is the
// root's), on top and focused, before any chain.
func pages(t *testing.T, now *time.Time) (*Screen, *Vol, *common.Common) {
	t.Helper()
	sh := modeltest.SandboxCommon(t)
	sh.Now = func() time.Time { return *now }
	s, v := New(sh, common.Config{Source: "SANDBOX", Now: sh.Now}.WithDefaults())
	s.Update(common.QueryMsg{Query: feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}})
	s.SetSize(120, 39)
	v.SetSize(120, 39)
	s.SetFocused(true)
	return s, v, sh
}

// loaded is pages with SPY's whole chain applied.
func loaded(t *testing.T, now *time.Time) (*Screen, *Vol, *common.Common) {
	t.Helper()
	s, v, sh := pages(t, now)
	m := sh.Source().Chain(t.Context(), s.Query(), 0)
	if m.Err != nil {
		t.Fatal(m.Err)
	}
	s.Update(m)
	if s.Chain().FullAt().IsZero() {
		t.Fatal("the whole chain was not applied")
	}
	s.SetSize(120, 39) // as the root does before each frame
	return s, v, sh
}

// TestVolPageMatchesTheLadder: the selected expiry's ATM IV and expected
// move are the ladder's own numbers (its ATM call and put: IVs averaged,
// mids added), and every tab's strip shows the page's figures.
func TestVolPageMatchesTheLadder(t *testing.T) {
	now := modeltest.Now
	s, v, _ := loaded(t, &now)
	s.Update(keyDown) // a step off the money and back: the cursor is the ladder's
	s.Update(keyUp)
	call, ok := s.Chain().Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	s.Update(keyRight)
	put, _ := s.Chain().Selected()
	if _, act := s.Update(runeKey('v')); act != (common.Open{Page: common.PageVol}) {
		t.Fatalf("v asks for %#v, not the vol page", act)
	}
	v.Update(common.DrawMsg{})
	figs := v.Charts().Figures()
	sel := -1
	for i, f := range figs {
		if f.Date == s.Chain().Expiry() {
			sel = i
		}
	}
	if sel < 0 {
		t.Fatalf("the selected expiry %v is not on the page", s.Chain().Expiry())
	}
	f := figs[sel]
	if f.ATMStrike != call.Strike {
		t.Fatalf("ATM %v, the ladder's money %v", f.ATMStrike, call.Strike)
	}
	if want := (call.Contract.IV + put.Contract.IV) / 2; math.Abs(f.ATMIV-want) > 1e-12 {
		t.Errorf("ATM IV %v, the ladder's %v and %v", f.ATMIV, call.Contract.IV, put.Contract.IV)
	}
	if want := call.Contract.Mid + put.Contract.Mid; math.Abs(f.Move-want) > 1e-9 {
		t.Errorf("move %v, the ladder's mids %v + %v", f.Move, call.Contract.Mid, put.Contract.Mid)
	}
	if f.RR25 >= 0 || math.IsNaN(f.BF25) || !(f.PCVolume > 0) {
		t.Errorf("SPY's skew and volumes: %+v", f)
	}
	tabs, _ := s.Chain().Tabs()
	if len(tabs) != len(figs) {
		t.Fatalf("%d tabs, %d expiries on the page", len(tabs), len(figs))
	}
	for i, tab := range tabs {
		if tab.Date != figs[i].Date || !same(tab.ATMIV, figs[i].ATMIV) || !same(tab.Move, figs[i].Move) {
			t.Errorf("tab %v: strip %v ±%v, page %v ±%v", tab.Date, tab.ATMIV, tab.Move, figs[i].ATMIV, figs[i].Move)
		}
	}
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestVolKeys: up and down (and the expiry keys) pick the expiry, left
// and right the strike, o the smile's mode; the ladder follows, since it
// is the ladder's selection. ? asks for the help, which lists the page's
// keys.
func TestVolKeys(t *testing.T) {
	now := modeltest.Now
	s, v, _ := loaded(t, &now)
	first := s.Chain().Expiry()
	v.Update(keyDown)
	if s.Chain().Expiry() <= first {
		t.Fatalf("down: expiry %v", s.Chain().Expiry())
	}
	v.Update(runeKey('['))
	if s.Chain().Expiry() != first {
		t.Fatalf("[: expiry %v, want %v", s.Chain().Expiry(), first)
	}
	k := s.Chain().CursorStrike()
	v.Update(keyRight)
	if s.Chain().CursorStrike() <= k {
		t.Fatalf("right: strike %v after %v", s.Chain().CursorStrike(), k)
	}
	v.Update(runeKey('o'))
	v.Update(common.DrawMsg{})
	if !v.Charts().Both() || !strings.Contains(ansi.Strip(strings.Join(v.View(), "\n")), "◐ both") {
		t.Error("o does not show calls and puts apart")
	}
	if _, act := v.Update(runeKey('?')); act != (common.OpenHelp{}) {
		t.Fatalf("? asks for %#v, not the help", act)
	}
	var keys []string
	for _, group := range v.FullHelp() {
		for _, b := range group {
			keys = append(keys, b.Help().Desc)
		}
	}
	if !strings.Contains(strings.Join(keys, ","), "strike (the ladder's cursor)") {
		t.Errorf("the page's help lacks the strike keys: %v", keys)
	}
}

// TestVolPageBeforeTheChain: the vol page before the first chain arrives
// says it is loading, at its exact size, and the page fills in when the
// chain comes.
func TestVolPageBeforeTheChain(t *testing.T) {
	now := modeltest.Now
	s, v, sh := pages(t, &now)
	s.SetSize(80, 23)
	v.SetSize(80, 23)
	v.Update(common.DrawMsg{})
	lines := v.View()
	if len(lines) != 23 || ansi.StringWidth(lines[10]) != 80 {
		t.Fatalf("%d lines", len(lines))
	}
	if !strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "loading SPY…") {
		t.Fatalf("no loading message:\n%s", ansi.Strip(strings.Join(lines, "\n")))
	}
	s.Update(sh.Source().Chain(t.Context(), s.Query(), 0))
	v.Update(common.DrawMsg{})
	if p := ansi.Strip(strings.Join(v.View(), "\n")); !strings.Contains(p, "Term structure") || strings.Contains(p, "loading") {
		t.Fatalf("the chain did not fill the page:\n%s", p)
	}
}

// TestScreenMouseSelectsAndScrolls: a click on a ladder row selects it,
// the wheel moves the selection, a click on the tape focuses it.
func TestScreenMouseSelectsAndScrolls(t *testing.T) {
	now := modeltest.Now
	s, _, _ := pages(t, &now)
	s.SetSize(160, 47) // a 160x48 terminal
	s.Update(feed.ChainMsg{Query: s.Query(), Chain: modeltest.SynthChain(3, 60, 0), At: now})
	if s.Chain().LastOK().IsZero() {
		t.Fatal("the first chain was not applied")
	}
	s.Update(runeKey('x')) // dismiss nothing; the banner is off without FirstRun
	s.SetSize(160, 47)
	_ = s.View()
	before := selStrike(t, s)
	lay := ui.NewLayout(160, 48, true, true)
	s.Update(tea.MouseClickMsg{X: lay.Ladder.X + 2, Y: lay.Ladder.Y + 3, Button: tea.MouseLeft})
	if after := selStrike(t, s); after == before {
		t.Fatalf("a click on another row kept the selection at %v", before)
	}
	clicked := selStrike(t, s)
	s.Update(tea.MouseWheelMsg{X: lay.Ladder.X + 2, Y: lay.Ladder.Y + 5, Button: tea.MouseWheelDown})
	if got := selStrike(t, s); got <= clicked {
		t.Fatalf("the wheel moved the selection from %v to %v", clicked, got)
	}
	s.Update(tea.MouseClickMsg{X: lay.Tape.X + 2, Y: lay.Tape.Y + 2, Button: tea.MouseLeft})
	if !s.TapeFocused() {
		t.Fatal("a click on the tape focuses it")
	}
}

// selStrike is the strike of the ladder's selected contract.
func selStrike(t *testing.T, s *Screen) float64 {
	t.Helper()
	d, ok := s.Chain().Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	return d.Strike
}

// TestExpiryKeysKeepTheContract: on the sandbox's SPY, a put a few
// strikes off the money stays that put across `]` and `[`.
func TestExpiryKeysKeepTheContract(t *testing.T) {
	now := modeltest.Now
	s, _, _ := loaded(t, &now)
	for range 3 {
		s.Update(keyDown)
	}
	s.Update(keyRight)
	d, _ := s.Chain().Selected()
	if d.Type != api.Put {
		t.Fatalf("selected %v %v", d.Strike, d.Type)
	}
	first := s.Chain().Expiry()
	s.Update(runeKey(']'))
	got, _ := s.Chain().Selected()
	if s.Chain().Expiry() == first || got.Type != api.Put || math.Abs(got.Strike-d.Strike) > 2.5 {
		t.Fatalf("] from %s %v put: %s %v %v", first, d.Strike, s.Chain().Expiry(), got.Strike, got.Type)
	}
	s.Update(runeKey('['))
	if got, _ := s.Chain().Selected(); s.Chain().Expiry() != first || got.Strike != d.Strike || got.Type != api.Put {
		t.Fatalf("[ back: %s %v %v, want %s %v put", s.Chain().Expiry(), got.Strike, got.Type, first, d.Strike)
	}
}

// TestHeldTapeSaysSoAndResumes: tab to the tape and Down holds it where
// it is; prints that arrive then are counted in its title with the key
// that resumes it, and leaving the pane resumes it: its top row is the
// newest print again. (It stood still at 10:00:00 with no sign while
// the header moved on.)
func TestHeldTapeSaysSoAndResumes(t *testing.T) {
	now := modeltest.Now
	s, _, sh := loaded(t, &now)
	q := s.Query()
	m := sh.Source().Tape(t.Context(), q, q.Day(now), 0)
	if m.Err != nil || len(m.Trades) < 20 {
		t.Fatalf("the sandbox's tape: %d trades, %v", len(m.Trades), m.Err)
	}
	s.Update(m)
	newest := func() int64 {
		s.SetSize(120, 39)
		_ = s.View()
		return s.Tape().TopSeq()
	}
	title := func() string {
		s.SetSize(120, 39)
		return ansi.Strip(s.Tape().View()[0])
	}
	// A page of prints newer than any held, as the next poll brings.
	more := func(n int) {
		trades := modeltest.SynthTrades(s.Tape().NextFrom(), n)
		s.Update(feed.TapeMsg{Query: q, From: s.Tape().NextFrom(), Trades: trades, At: now})
	}
	top := newest()
	if strings.Contains(title(), "PAUSED") {
		t.Fatalf("a live tape reads paused: %q", title())
	}
	s.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if !s.TapeFocused() {
		t.Fatal("tab did not focus the tape")
	}
	s.Update(keyDown)
	more(27)
	if got := newest(); got != top {
		t.Fatalf("a held tape moved: top row %d, was %d", got, top)
	}
	if got := title(); !strings.Contains(got, "PAUSED 27 newer, g resumes") {
		t.Fatalf("held tape's title %q", got)
	}
	s.Update(tea.KeyPressMsg{Code: tea.KeyTab}) // to the events pane
	if s.TapeFocused() || s.Tape().Paused() {
		t.Fatalf("leaving the tape: focused %v, paused %v", s.TapeFocused(), s.Tape().Paused())
	}
	if got, want := newest(), s.Tape().NextFrom()-1; got != want || strings.Contains(title(), "PAUSED") {
		t.Fatalf("resumed tape: top row %d, want the newest %d; title %q", got, want, title())
	}

	// g resumes it in place; the wheel over it holds it and focuses it,
	// so that the key works.
	s.Update(tea.KeyPressMsg{Code: tea.KeyTab}) // to the ladder
	lay := ui.NewLayout(120, 40, true, true)
	s.Update(tea.MouseWheelMsg{X: lay.Tape.X + 2, Y: lay.Tape.Y + 4, Button: tea.MouseWheelDown})
	more(3)
	if !s.TapeFocused() || !strings.Contains(title(), "PAUSED 4 newer") {
		t.Fatalf("the wheel over the tape: focused %v, title %q", s.TapeFocused(), title())
	}
	s.Update(runeKey('g'))
	if got, want := newest(), s.Tape().NextFrom()-1; got != want || s.Tape().Paused() {
		t.Fatalf("g: top row %d, want %d, paused %v", got, want, s.Tape().Paused())
	}
}

// TestNonTradingDayCountsFromOneDay: on Thanksgiving the screen shows
// Wednesday's close; the expiry tabs' DTE and the events pane's days
// count from that same day, and the events title says which it is. (The
// events counted from Thursday, the tabs from Wednesday: an event and an
// expiry on one date were a day apart.)
func TestNonTradingDayCountsFromOneDay(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, api.Eastern)
	sh := modeltest.Common(now)
	sh.Client = modeltest.StartSandbox(t, sandbox.Config{Now: func() time.Time { return now }})
	s, _ := New(sh, common.Config{Source: "SANDBOX", Now: sh.Now}.WithDefaults())
	q := feed.Query{Symbol: "AAPL", Mode: api.Live, Gen: 1}
	s.Update(common.QueryMsg{Query: q})
	s.SetSize(160, 47)
	s.SetFocused(true)
	if m := sh.Source().Chain(t.Context(), q, 0); m.Err != nil {
		t.Fatal(m.Err)
	} else {
		s.Update(m)
	}
	if m := sh.Source().Calendar(t.Context(), q); m.Err != nil {
		t.Fatal(m.Err)
	} else {
		s.Update(m)
	}
	tabs, _ := s.Chain().Tabs()
	if len(tabs) == 0 {
		t.Fatal("no expiry tabs")
	}
	wed := api.Date(0)
	for _, tab := range tabs {
		from := tab.Date.AddDays(-tab.DTE)
		if wed != 0 && from != wed {
			t.Fatalf("tabs count from %s and %s", wed, from)
		}
		wed = from
	}
	if wed.String() != "2026-11-25" {
		t.Fatalf("DTE counts from %s, want the shown day 2026-11-25", wed)
	}
	s.SetSize(160, 47)
	lines := s.Calendar().View()
	if title := ansi.Strip(lines[0]); !strings.Contains(title, "as of Nov25") {
		t.Errorf("events title %q, want it to say it counts from Nov 25", title)
	}
	next := s.Calendar().NextEarnings(wed)
	if next == 0 {
		t.Fatal("no upcoming earnings in the sandbox's AAPL")
	}
	want := fmt.Sprintf("in %dd", wed.DaysUntil(next))
	found := false
	for _, l := range lines[1:] {
		if l := ansi.Strip(l); strings.Contains(l, "EPS") && strings.HasSuffix(strings.TrimSpace(l), want) {
			found = true
		}
	}
	if !found {
		t.Errorf("no earnings line ends %q (DTE's count to %s):\n%s", want, next, ansi.Strip(strings.Join(lines, "\n")))
	}
}

// expiryOnTape is an expiry as the tape writes it: Nov20, Dec21.
var expiryOnTape = regexp.MustCompile(`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\d\d\b`)

// TestGreeksTapeNamesTheContract: at 160x48 on the sandbox's SPY, `i`
// keeps each print's expiry on the tape and puts headings over its
// columns. (The IV, delta and premium columns took the expiry's room,
// under no headings.)
func TestGreeksTapeNamesTheContract(t *testing.T) {
	now := modeltest.Now
	s, _, sh := loaded(t, &now)
	q := s.Query()
	s.Update(sh.Source().Tape(t.Context(), q, q.Day(now), 0))
	s.Update(runeKey('i'))
	if !s.Tape().GreeksOn() {
		t.Fatal("i did not show the greeks columns")
	}
	s.SetSize(160, 47)
	_ = s.View()
	lines := s.Tape().View()
	head, first := ansi.Strip(lines[2]), ansi.Strip(lines[3])
	for _, h := range []string{"time", "strike", "exp", "price", "size", "IV", "delta"} {
		if !strings.Contains(head, h) {
			t.Errorf("no heading %q in %q", h, head)
		}
	}
	exp := expiryOnTape.FindStringIndex(first)
	if exp == nil {
		t.Fatalf("the first print %q names no expiry", first)
	}
	if strings.Index(head, "exp") != exp[0] {
		t.Errorf("the expiry is not under its heading:\n%s\n%s", head, first)
	}
}

// TestTicketKeysActOnTheFocusedPane: with the events pane focused (tab
// twice), space and z put nothing on the ticket (they used to send the
// ladder's contract: "ticket: 0 legs of 0 legs" after both) but say
// where they work; the focused pane's title has the "▸" and the ladder's
// heading has not. Back on the ladder, space sends its contract and the
// ladder's heading has the "▸".
func TestTicketKeysActOnTheFocusedPane(t *testing.T) {
	now := modeltest.Now
	s, _, _ := loaded(t, &now)
	heads := func() (ladder, cal string) {
		s.SetSize(120, 39)
		v := s.Chain().View()
		for i := range v {
			if l := ansi.Strip(v[i]); strings.Contains(l, "Strike") {
				return l, ansi.Strip(s.Calendar().View()[0])
			}
		}
		t.Fatalf("no ladder heading:\n%s", ansi.Strip(strings.Join(v, "\n")))
		return "", ""
	}
	s.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	s.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	ladder, cal := heads()
	if strings.Contains(ladder, "▸") || !strings.Contains(cal, "▸") {
		t.Fatalf("events pane focused: ladder heading %q, events title %q", ladder, cal)
	}
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeySpace, Text: " "}, runeKey('z')} {
		cmd, act := s.Update(k)
		if cmd != nil {
			if msg, ok := cmd().(common.TicketMsg); ok {
				t.Fatalf("%s on the events pane sent the ladder's contract: %+v", k, msg)
			}
		}
		n, ok := act.(common.Notice)
		if !ok || n.Info || !strings.Contains(n.Text, "ticket") || !strings.Contains(n.Text, "tab to the ladder") {
			t.Errorf("%s on the events pane: %#v", k, act)
		}
	}
	s.Update(tea.KeyPressMsg{Code: tea.KeyTab}) // back to the ladder
	ladder, cal = heads()
	if !strings.HasPrefix(ladder, "▸") || strings.Contains(cal, "▸") {
		t.Fatalf("ladder focused: ladder heading %q, events title %q", ladder, cal)
	}
	cmd, _ := s.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	if cmd == nil {
		t.Fatal("space on the ladder sent nothing")
	}
	if msg, ok := cmd().(common.TicketMsg); !ok || msg.Add.Qty != 1 {
		t.Fatalf("space on the ladder: %#v", msg)
	}
}
