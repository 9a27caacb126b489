package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
	mpos "chainwatch/model/positioning"
	"chainwatch/positioning"
	"chainwatch/theme"
)

// shapedChain is a SPY chain with positioning to see: four expiries
// (today, Monday, next Friday, 45 days out) of the strikes 570
// to 630, the puts' open interest heaped at 590 and 580, the calls' at
// 610 and 620, today's volume near the money, IV with a skew, and each
// contract's Black-Scholes gamma at spot 600.37. Every number follows
// from the strike and the expiry: the goldens do not move.
func shapedChain() *api.SymbolWithOptions {
	s := modeltest.SynthChain(1, 1, 0)
	s.Options = s.Options[:0]
	s.Timestamp = api.NewTimeOfDay(11, 30, 0, 0)
	spot := s.Underlying.Spot()
	heap := func(k, at, width, top float64) float64 { return top * math.Exp(-(k-at)*(k-at)/(2*width*width)) }
	for _, days := range []int{0, 3, 7, 45} {
		exp := modeltest.SynthDay.AddDays(days)
		T := (float64(days) + 4.5/24) / 365
		for k := 570.0; k <= 630; k++ {
			for _, typ := range []api.OptionType{api.Call, api.Put} {
				osi, _ := api.FormatOSI("SPY", exp, typ, k)
				iv := 0.16 + 0.002*(600-k)/5 + 0.01*float64(days)/45
				sd := iv * math.Sqrt(T)
				d1 := (math.Log(spot/k) + sd*sd/2) / sd
				gamma := math.Exp(-d1*d1/2) / math.Sqrt(2*math.Pi) / (spot * sd)
				oi := 500 + heap(k, 610, 3, 9000) + heap(k, 620, 2, 6000)
				if typ == api.Put {
					oi = 500 + heap(k, 590, 3, 11000) + heap(k, 580, 2, 7000)
				}
				oi *= 1 + float64(days)/20
				vol := heap(k, 600, 6, 4000) / (1 + float64(days))
				s.Options = append(s.Options, api.OptionData{Root: "SPY", Expiry: exp, Strike: k, OptionType: typ, Option: osi,
					OpenInterest: api.Some(int64(oi)), Volume: api.Some(int64(vol)), IV: api.Some(math.Round(iv*1e4) / 1e4),
					Gamma: api.Some(math.Round(gamma*1e6) / 1e6)})
			}
		}
	}
	return s
}

// positioningRig is the SPY screen with shapedChain as its first (whole)
// chain, answered through the monitor, and the positioning page opened
// with p; the screen's other requests are left unanswered.
func positioningRig(t *testing.T, now *time.Time) *rig {
	t.Helper()
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return *now }, Theme: "dark"})
	r.a.resize(160, 48)
	r.a.Init()
	if q := r.answer(feed.FeedChain, feed.ChainMsg{Chain: shapedChain(), Resp: okResp(4), At: *now}); q.Expiry != 0 {
		t.Fatalf("the first chain asked for %v, not the whole chain", q.Expiry)
	}
	r.a.Update(runeKey('p'))
	if r.a.topID() != common.PagePositioning {
		t.Fatal("p did not open the positioning page")
	}
	return r
}

func (a *App) pp() *mpos.Page { return a.built[common.PagePositioning].(*mpos.Page) }

// TestGoldenPositioning: the page as the App composes it, over the status
// bar, at 160x48 and 80x24, in colour and without.
func TestGoldenPositioning(t *testing.T) {
	now := testNow
	a := positioningRig(t, &now).a
	for _, tc := range []struct {
		w, h    int
		noColor bool
	}{{160, 48, false}, {80, 24, false}, {160, 48, true}, {80, 24, true}} {
		name := fmt.Sprintf("%dx%d", tc.w, tc.h)
		if tc.noColor {
			name += "-nocolor"
		}
		t.Run(name, func(t *testing.T) {
			a.resize(tc.w, tc.h)
			a.sh.Styles = theme.New(theme.Dark(), tc.noColor)
			out := a.drawAt(now)
			lines := strings.Split(out, "\n")
			if len(lines) != tc.h {
				t.Fatalf("%d lines", len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != tc.w {
					t.Fatalf("line %d is %d cells: %q", i, w, ansi.Strip(l))
				}
			}
			golden.RequireEqual(t, []byte(out))
			plain := ansi.Strip(out)
			for _, want := range []string{"SPY positioning", "30 days", "held: 0 pts", "spot 600.37", "zero gamma", "◀ puts", "calls ▶",
				"dealers assumed long calls, short puts", "next expiries"} {
				if !strings.Contains(plain, want) {
					t.Errorf("the page lacks %q:\n%s", want, plain)
				}
			}
			if tc.noColor && (strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;") || strings.Contains(out, "38;5;")) {
				t.Error("NO_COLOR page carries colours")
			}
		})
	}
}

// TestGoldenPositioningVanna: the page showing vanna exposure (x once),
// then charm (x twice), at 160x48 and 80x24: the column, the totals and
// what they mean follow the key.
func TestGoldenPositioningVanna(t *testing.T) {
	now := testNow
	a := positioningRig(t, &now).a
	for i, g := range []struct{ name, head, total string }{{"vanna", "VEX", "VEX per vol point"}, {"charm", "CEX", "CEX per day"}} {
		a.Update(runeKey('x'))
		if got := a.pp().Greek(); got != positioning.Greek(i+1) {
			t.Fatalf("x: %v, want %s", got, g.name)
		}
		for _, size := range [][2]int{{160, 48}, {80, 24}} {
			t.Run(fmt.Sprintf("%s-%dx%d", g.name, size[0], size[1]), func(t *testing.T) {
				a.resize(size[0], size[1])
				out := a.drawAt(now)
				golden.RequireEqual(t, []byte(out))
				plain := ansi.Strip(out)
				want := []string{g.head}
				if size[0] == 160 {
					want = append(want, g.total)
				}
				for _, w := range want {
					if !strings.Contains(plain, w) {
						t.Errorf("the page lacks %q:\n%s", w, plain)
					}
				}
			})
		}
	}
	a.Update(runeKey('x'))
	if a.pp().Greek() != positioning.Gamma {
		t.Errorf("x thrice: %v, not gamma again", a.pp().Greek())
	}
}

// TestPositioningCostsNothingWhenHeld: with the whole chain held (the
// screen's first fetch), opening the page asks for nothing: the ladder's
// chain, tape and calendar it covers are not polled, and the whole chain
// is next fetched on its own schedule, its interval after the one held.
// The page's figures are the package's over the same chain.
func TestPositioningCostsNothingWhenHeld(t *testing.T) {
	now := testNow
	r := positioningRig(t, &now)
	a := r.a
	if !a.pp().Held() || a.polled(feed.FeedTape) || a.polled(feed.FeedChain) || a.polled(feed.FeedCalendar) || !a.polled(feed.FeedTerm) {
		_, ws := a.wants()
		t.Fatalf("wants under the page: %+v", ws)
	}
	before := r.asked(feed.FeedChain) + r.asked(feed.FeedTerm)
	if due := r.due(feed.FeedTerm); !due.Equal(now.Add(5 * time.Minute)) {
		t.Fatalf("the whole chain is next due %v, want 5m after the one held", due)
	}
	now = now.Add(time.Minute)
	r.fire()
	if n := r.asked(feed.FeedChain) + r.asked(feed.FeedTerm); n != before {
		t.Fatalf("%d chain requests a minute after opening, %d before", n, before)
	}
	plain := ansi.Strip(a.drawAt(now))
	if !strings.Contains(plain, "whole chain 1m00s old, held: 0 pts") || !strings.Contains(plain, "next expiries 4m00s (4 pts)") {
		t.Fatalf("the cost:\n%s", plain)
	}
	got, flip := a.pp().Figures()
	ch := positioning.FromSnapshot(shapedChain(), modeltest.SynthDay, testNow)
	sel := positioning.PageRanges[2].Select(ch)
	want := positioning.Compute(ch, sel)
	wantFlip := positioning.NewCurve(ch, sel).ZeroGamma(ch.Spot, positioning.ZeroGammaGrid)
	if got.GEX != want.GEX || got.CallWall != want.CallWall || got.PutWall != want.PutWall || flip != wantFlip || len(got.MaxPain) != 3 {
		t.Errorf("the page's figures %+v %+v, the package's %+v %+v", got.GEX, flip, want.GEX, wantFlip)
	}
	if want.CallWall != 610 || want.PutWall != 590 || math.IsNaN(wantFlip.Level) {
		t.Errorf("the shaped chain's walls %v / %v, flip %v", want.CallWall, want.PutWall, wantFlip.Level)
	}
}

// TestPositioningQuickLookAtAnOldChain: a whole chain held longer than
// the refresh interval is shown at once for nothing, and refreshed no
// sooner than 3 s after opening: a quick look costs nothing.
func TestPositioningQuickLookAtAnOldChain(t *testing.T) {
	now := testNow
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return now }, Theme: "dark"})
	a := r.a
	a.resize(160, 48)
	a.Init()
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: shapedChain(), Resp: okResp(4), At: now})
	now = now.Add(20 * time.Minute)
	a.Update(runeKey('p'))
	if due := r.due(feed.FeedTerm); !due.Equal(now.Add(3 * time.Second)) {
		t.Fatalf("a 20-minute-old chain: next whole chain %v, want 3s after opening", due)
	}
	if plain := ansi.Strip(a.drawAt(now)); !strings.Contains(plain, "whole chain 20m00s old, held: 0 pts") {
		t.Fatalf("the old chain is not shown at once:\n%s", plain)
	}
	a.Update(keyEsc())
	now = now.Add(3 * time.Second)
	r.fire()
	if a.feeds().InFlight(feed.FeedTerm) || r.asked(feed.FeedTerm) > 0 {
		t.Fatal("the whole chain was fetched after the page closed")
	}
}

// TestPositioningFetchesTheWholeChainOnce: with no whole chain held (the
// first one failed), the page polls the chain, whose next fetch is the
// whole chain, once; holding it, the page stops the ladder's polling and
// takes the next whole chain on its schedule, and says what it cost.
func TestPositioningFetchesTheWholeChainOnce(t *testing.T) {
	now := testNow
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return now }, Theme: "dark"})
	a := r.a
	a.resize(160, 48)
	a.Init()
	r.answer(feed.FeedChain, feed.ChainMsg{Err: &api.APIError{StatusCode: 503}, At: now})
	a.Update(runeKey('p'))
	if a.pp().Held() || !a.polled(feed.FeedChain) || a.polled(feed.FeedTerm) {
		_, ws := a.wants()
		t.Fatalf("nothing held: the chain must be polled: %+v", ws)
	}
	if plain := ansi.Strip(a.drawAt(now)); !strings.Contains(plain, "SPY: ") || !strings.Contains(plain, "no whole chain held yet") {
		t.Fatalf("the failure is not said:\n%s", plain)
	}
	now = now.Add(time.Minute) // past the backoff
	r.fire()
	if q := r.answer(feed.FeedChain, feed.ChainMsg{Chain: shapedChain(), Resp: okResp(4), At: now}); q.Expiry != 0 {
		t.Fatalf("the chain fetched for the page asked for %v, not the whole chain", q.Expiry)
	}
	if !a.pp().Held() || !a.polled(feed.FeedTerm) || a.polled(feed.FeedChain) || !r.due(feed.FeedChain).IsZero() {
		t.Fatalf("held %v, term polled %v, chain due %v", a.pp().Held(), a.polled(feed.FeedTerm), r.due(feed.FeedChain))
	}
	now = now.Add(5 * time.Minute)
	r.fire()
	if !a.feeds().InFlight(feed.FeedTerm) || r.asked(feed.FeedChain) != 0 {
		t.Fatalf("5 minutes on: whole chain in flight %v, ladder requests %d", a.feeds().InFlight(feed.FeedTerm), r.asked(feed.FeedChain))
	}
	r.answer(feed.FeedTerm, feed.TermMsg{ChainMsg: feed.ChainMsg{Chain: shapedChain(), Resp: okResp(4), At: now}})
	if plain := ansi.Strip(a.drawAt(now)); !strings.Contains(plain, "whole chain 0s old, fetched for 4 pts") {
		t.Fatalf("the fetch's cost is not said:\n%s", plain)
	}
}

// TestPositioningKeys: f cycles the range (30 days, all, 0DTE, this week,
// 30 days again), the figures following; / is the watch screen's; m
// changes the screen's query and the page starts over, its first request
// the new path's whole chain; esc goes back.
func TestPositioningKeys(t *testing.T) {
	now := testNow
	r := positioningRig(t, &now)
	a := r.a
	var calls []int64
	for _, want := range []string{"all", "0DTE", "this week", "30 days"} {
		a.Update(runeKey('f'))
		if got := a.pp().Range().Label(); got != want {
			t.Fatalf("f: range %q, want %q", got, want)
		}
		plain := ansi.Strip(a.drawAt(now))
		if !strings.Contains(plain, "SPY positioning  "+want) {
			t.Fatalf("the title does not say %q:\n%s", want, plain[:200])
		}
		f, _ := a.pp().Figures()
		calls = append(calls, f.CallOI)
	}
	// On a Friday, this week is today.
	if calls[0] <= calls[3] || calls[3] <= calls[1] || calls[2] != calls[1] {
		t.Errorf("call OI over all, 0DTE, this week, 30 days: %v", calls)
	}
	a.Update(keyDown)
	a.Update(runeKey('g'))
	a.Update(runeKey('/'))
	if a.overlay != nil {
		t.Fatal("/ opened the symbol prompt on the page: a symbol is the watch screen's to pick")
	}
	a.Update(runeKey('m'))
	if a.q.Mode != api.Delayed || a.pp().Held() || a.polled(feed.FeedTerm) {
		t.Fatalf("after m: query %v, held %v", a.q, a.pp().Held())
	}
	if q := r.take(feed.FeedChain); q.Query.Mode != api.Delayed || q.Expiry != 0 {
		t.Fatalf("the delayed path's first request %+v, want its whole chain", q)
	}
	a.Update(keyEsc())
	if a.topID() != common.PageWatch {
		t.Fatal("esc did not go back to the watch screen")
	}
}

// BenchmarkPositioningFrame160x48 is a frame of the positioning page at
// 160x48 over an SPX-sized chain (20,000 contracts, all its expiries),
// the figures computed once before: "kept" is a frame where only the
// title's age and countdown move (the body as drawn last), "anew" one
// after a scroll, every strike row and the panel drawn again. The issue's
// budget is 1.2 times BenchmarkFrame160x48/20000, the watch screen's.
//
//	go test -run '^$' -bench 'Frame160x48' -benchmem ./model
func BenchmarkPositioningFrame160x48(b *testing.B) {
	a, now := loadedApp(b, 40, 250)
	a.Update(feed.ChainMsg{Query: a.q, Chain: modeltest.SynthChain(40, 250, 1), Resp: okResp(4), At: now})
	a.Update(runeKey('p'))
	a.Update(runeKey('f')) // all expiries
	if f, _ := a.pp().Figures(); a.topID() != common.PagePositioning || len(f.Expiries) != 40 {
		b.Fatalf("the page is not open on the whole chain: %d expiries", len(f.Expiries))
	}
	b.Run("kept", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = a.drawAt(now)
		}
	})
	b.Run("anew", func(b *testing.B) {
		b.ReportAllocs()
		step := []tea.KeyPressMsg{keyDown, keyUp}
		i := 0
		for b.Loop() {
			a.pp().Update(step[i%2])
			i++
			_ = a.drawAt(now)
		}
	})
}
