package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
)

// fixtureTabs is a month and more of SPY-like expiries from 2026-11-18:
// dailies, Friday weeklies, the November and December monthlies, a
// quarterly, with earnings after Dec 1.
func fixtureTabs() []ExpiryTab {
	today := api.NewDate(2026, 11, 18)
	var tabs []ExpiryTab
	for d := today; len(tabs) < 32; d = d.AddDays(1) {
		wd := d.Weekday()
		if wd == 0 || wd == 6 {
			continue
		}
		k := ExpiryDaily
		if wd == 5 {
			k = ExpiryWeekly
			if d.Day() >= 15 && d.Day() <= 21 {
				k = ExpiryMonthly
			}
		}
		if d.Month() == 12 && d.Day() == 31 {
			k = ExpiryQuarterly
		}
		tabs = append(tabs, ExpiryTab{Date: d, DTE: today.DaysUntil(d), Kind: k, Earnings: d >= api.NewDate(2026, 12, 1)})
	}
	return tabs
}

func TestExpiryTabsGolden(t *testing.T) {
	tabs := fixtureTabs()
	out := ExpiryTabs(tabs, 2, 100, darkStyles) + "\n" +
		ExpiryTabs(tabs, 17, 100, darkStyles) + "\n" +
		ExpiryTabs(tabs, 17, 100, noColorStyles)
	golden.RequireEqual(t, out)
}

func TestExpiryTabs(t *testing.T) {
	tabs := fixtureTabs()
	for _, w := range []int{1, 5, 12, 20, 40, 80, 100, 160, 400} {
		for sel := -1; sel <= len(tabs); sel++ {
			line := ExpiryTabs(tabs, sel, w, darkStyles)
			if got := ansi.StringWidth(line); got != w {
				t.Fatalf("width %d, selected %d: %d cells: %q", w, sel, got, ansi.Strip(line))
			}
			if w < 20 || sel < 0 || sel >= len(tabs) {
				continue
			}
			plain := ansi.Strip(line)
			want := "[" + string(appendTab(nil, &tabs[sel])) + "]"
			if !strings.Contains(plain, want) {
				t.Errorf("width %d: selected tab %d not in sight as %q: %q", w, sel, want, plain)
			}
		}
	}
	plain := ansi.Strip(ExpiryTabs(tabs, 0, 700, darkStyles))
	for _, want := range []string{"[Nov18 0d]", " Nov20 2d M ", " Nov27 9d W ", " Dec01 13d E ", " Dec18 30d M E ", " Dec31 43d Q E "} {
		if !strings.Contains(plain, want) {
			t.Errorf("tab %q missing: %q", want, plain)
		}
	}
	if strings.Contains(plain, "‹") || strings.Contains(plain, "›") {
		t.Errorf("everything fits: no scroll arrows: %q", plain)
	}
	plain = ansi.Strip(ExpiryTabs(tabs, 20, 80, darkStyles))
	if !strings.HasPrefix(plain, "‹") || !strings.HasSuffix(plain, "›") {
		t.Errorf("scrolled tabs should show arrows both ends: %q", plain)
	}
	if got := ExpiryTabs(nil, 0, 30, darkStyles); ansi.StringWidth(got) != 30 || !strings.Contains(got, "no expiries") {
		t.Errorf("no tabs: %q", got)
	}
}

func TestExpiryHit(t *testing.T) {
	tabs := fixtureTabs()
	for _, w := range []int{60, 100, 400} {
		for _, sel := range []int{0, 7, 20, 23} {
			plain := []rune(ansi.Strip(ExpiryTabs(tabs, sel, w, darkStyles)))
			span := map[int][2]int{} // tab -> first x, cells hit
			for x := -2; x < w+2; x++ {
				i, ok := ExpiryHit(tabs, sel, w, x)
				if x < 0 || x >= w {
					if ok {
						t.Errorf("x %d outside the bar hit tab %d", x, i)
					}
					continue
				}
				if !ok {
					if c := plain[x]; c != ' ' && c != '‹' && c != '›' {
						t.Errorf("w %d sel %d: x %d (%q) is on a tab but hits nothing", w, sel, x, c)
					}
					continue
				}
				sp, had := span[i]
				if !had {
					sp[0] = x
				} else if sp[0]+sp[1] != x {
					t.Errorf("w %d sel %d: tab %d hit at %d, not contiguous", w, sel, i, x)
				}
				sp[1]++
				span[i] = sp
			}
			if _, ok := span[sel]; !ok {
				t.Errorf("w %d: the selected tab %d is never hit", w, sel)
			}
			// Each hit range is exactly its tab as drawn, to its strip cell's width.
			for i, sp := range span {
				txt := string(appendTab(nil, &tabs[i]))
				want := " " + txt + " "
				if i == sel {
					want = "[" + txt + "]"
				}
				// A tab reaches to its strip cell's width.
				want = padRight(want, tabWidth(&tabs[i], w >= stripLongFrom))
				if got := string(plain[sp[0] : sp[0]+sp[1]]); got != want {
					t.Errorf("w %d sel %d: tab %d hits %q, want %q", w, sel, i, got, want)
				}
			}
		}
	}
	if _, ok := ExpiryHit(nil, 0, 80, 3); ok {
		t.Error("no tabs, no hit")
	}
}
