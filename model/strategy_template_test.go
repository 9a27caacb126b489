package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
	strat "chainwatch/model/strategy"
)

// templateApp is the loaded SPY ladder (strikes 500 to 699, the
// underlying at 600.37) with the cursor moved 30 strikes from the money,
// the strategy page opened on it (T) and keys typed there, its legs
// marked from the chain.
func templateApp(t *testing.T, keys string) (*App, time.Time) {
	t.Helper()
	a, now := loadedApp(t, 3, 200)
	keys = strings.Repeat("k", 30) + "T" + keys
	for i, r := range keys {
		a.update(runeKey(r)) // not syncFeeds: the test brings the legs' marks
		if i == 30 && a.topID() != common.PageStrategy {
			t.Fatalf("page %v", a.topID())
		}
	}
	for _, j := range jobsOf(a) {
		res := feed.LegsResult{{Symbol: "SPY", Chain: modeltest.SynthChain(3, 200, 1), At: now}}
		a.update(feed.JobMsg{Name: j.Name, JobResult: feed.JobResult{Value: res}, At: now, Every: time.Minute, Next: now.Add(time.Minute)})
	}
	return a, now
}

func (a *App) stp() *strat.Page { return a.built[common.PageStrategy].(*strat.Page) }

// TestTemplateCentredOnTheMoney: t builds the template on the strike
// nearest the underlying, not at the cursor 30 strikes away, five
// strikes wide; } and { widen and narrow it a strike, D moves a
// condor's short strikes from a delta to the width.
func TestTemplateCentredOnTheMoney(t *testing.T) {
	for _, c := range []struct{ keys, want string }{
		{"t", "SPY +1xSPY%[1]sC00600000 -1xSPY%[1]sC00605000"},
		{"t}}", "SPY +1xSPY%[1]sC00600000 -1xSPY%[1]sC00607000"},
		{"t" + strings.Repeat("}", 20), "SPY +1xSPY%[1]sC00600000 -1xSPY%[1]sC00625000"}, // past the ladder's 40 rows
		{"t{{{{{{", "SPY +1xSPY%[1]sC00600000 -1xSPY%[1]sC00601000"},
		{"ttttDDD", "SPY +1xSPY%[1]sP00590000 -1xSPY%[1]sP00595000 -1xSPY%[1]sC00605000 +1xSPY%[1]sC00610000"},
	} {
		a, _ := templateApp(t, c.keys)
		st := a.stp().Strategy()
		exp := strings.TrimPrefix(st.Legs[0].OSI(), "SPY")[:6]
		if got, want := st.String(), fmt.Sprintf(c.want, exp); got != want {
			t.Errorf("%q:\n got %s\nwant %s", c.keys, got, want)
		}
	}
}

// TestGoldenStrategyTemplate snapshots the strategy page with the
// vertical t builds, at 80x24 and 160x48. Regenerate with go test
// ./model -run Golden -update and read it stripped before committing.
func TestGoldenStrategyTemplate(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			a, now := templateApp(t, "t")
			a.resize(sz[0], sz[1])
			out := a.drawAt(now)
			golden.RequireEqual(t, []byte(out))
			plain := ansi.Strip(out)
			for _, want := range []string{"Strategy · SPY · vertical", "C600", "C605"} {
				if !strings.Contains(plain, want) {
					t.Errorf("the page lacks %q:\n%s", want, plain)
				}
			}
		})
	}
}

// TestTemplateDeltaTie: where the chain's deltas tie (the synthetic
// chain's are all 0.5), a condor's short strikes are the ones nearest
// the money, its wings the width beyond.
func TestTemplateDeltaTie(t *testing.T) {
	a, _ := templateApp(t, "tttt")
	st := a.stp().Strategy()
	var ks []float64
	for _, l := range st.Legs {
		ks = append(ks, l.Strike)
	}
	if fmt.Sprint(ks) != "[594 599 601 606]" || st.Name() != "iron condor" {
		t.Fatalf("%s: %v", st.Name(), ks)
	}
}

// TestTicketNameFollowsSigns: the vertical t builds, its sold leg made
// two (j +), is a 1x2 call ratio on the page's title; that leg flipped
// (f) to bought, both legs long, the ticket is custom.
func TestTicketNameFollowsSigns(t *testing.T) {
	for _, c := range []struct{ keys, want string }{
		{"t", "Strategy · SPY · vertical ·"},
		{"tj+", "Strategy · SPY · 1x2 call ratio ·"},
		{"tj+f", "Strategy · SPY · custom, 2 legs ·"},
	} {
		a, now := templateApp(t, c.keys)
		if plain := ansi.Strip(a.drawAt(now)); !strings.Contains(plain, c.want) {
			t.Errorf("%q: the page lacks %q:\n%s", c.keys, c.want, plain)
		}
	}
}

// TestWidthKeysLeaveAClearedTicket: once the ticket is cleared (X), }
// builds nothing; it sets the width the next t builds at.
func TestWidthKeysLeaveAClearedTicket(t *testing.T) {
	a, _ := templateApp(t, "tX}")
	if st := a.stp().Strategy(); len(st.Legs) != 0 {
		t.Fatalf("} rebuilt over a cleared ticket: %s", st.String())
	}
	a, _ = templateApp(t, "X}t")
	st := a.stp().Strategy()
	if got := st.String(); !strings.Contains(got, "C00606000") {
		t.Fatalf("the next template is not 6 wide: %s", got)
	}
}
