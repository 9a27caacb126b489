package ui

import (
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/evertras/bubble-table/table"
)

// BenchmarkBubbleTableView40 is bubble-table v0.23.0 drawing the same 40
// visible rows (14 columns of formatted strings, 160 wide) of the fixture
// chain, paged, as the performance notes measured it: the yardstick of
// the issue's "the whole frame in at most a quarter of bubble-table's
// View". It is built the plain way the issue names
// (New(columns).WithRows(rows).WithPageSize(40)), the cheapest a table
// gets; /styled adds what the ladder draws (a base style, ITM rows on a
// background) for an apples-to-apples figure.
func BenchmarkBubbleTableView40(b *testing.B) {
	plain := bubbleTable40(false)
	styled := bubbleTable40(true)
	for _, c := range []struct {
		name string
		m    table.Model
	}{{"plain", plain}, {"styled", styled}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var out string
			for b.Loop() {
				out = c.m.View()
			}
			benchLines = []string{out}
		})
	}
}

func bubbleTable40(styled bool) table.Model {
	st := darkStyles
	keys := []string{"cvol", "coi", "civ", "cdelta", "clast", "cbid", "cask", "strike", "pbid", "pask", "plast", "pdelta", "piv", "pvol"}
	titles := []string{"Vol", "OI", "IV", "Delta", "Last", "Bid", "Ask", "Strike", "Bid", "Ask", "Last", "Delta", "IV", "Vol"}
	columns := make([]table.Column, len(keys))
	for i, k := range keys {
		// 14 columns of 10 cells plus 15 borders: 155 of the 160 cells.
		columns[i] = table.NewColumn(k, titles[i], 10)
	}
	src := fixtureRows(20000, fixtureSpot)
	rows := make([]table.Row, 0, 40)
	start := len(src)/2 - 20
	itm := lipgloss.NewStyle().Background(st.Palette.ITM)
	for i := start; i < start+40; i++ {
		r := &src[i]
		c, p := &r.Call, &r.Put
		row := table.NewRow(table.RowData{
			"cvol": fmtSize(c.Volume), "coi": fmtSize(c.OI), "civ": fmtPct(c.IV, 1), "cdelta": fmtGreek(c.Delta, 3),
			"clast": fmtPrice(c.Last), "cbid": fmtPrice(c.Bid), "cask": fmtPrice(c.Ask),
			"strike": fmtStrike(r.Strike),
			"pbid":   fmtPrice(p.Bid), "pask": fmtPrice(p.Ask), "plast": fmtPrice(p.Last),
			"pdelta": fmtGreek(p.Delta, 3), "piv": fmtPct(p.IV, 1), "pvol": fmtSize(p.Volume),
		})
		if styled && r.Strike < fixtureSpot {
			row = row.WithStyle(itm)
		}
		rows = append(rows, row)
	}
	m := table.New(columns).WithRows(rows).WithPageSize(40)
	if styled {
		m = m.WithBaseStyle(st.Value).Focused(true)
	}
	return m
}
