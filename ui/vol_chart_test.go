package ui

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/vol"
)

// plotCells is a drawn chart as rows of runes, colour stripped.
func plotCells(c chart) [][]rune {
	var out [][]rune
	for _, l := range c.draw(noColorStyles) {
		out = append(out, []rune(ansi.Strip(l)))
	}
	return out
}

// axisColumn is the column of the Y axis (│ or └), -1 without one.
func axisColumn(row []rune) int {
	for i, r := range row {
		if r == '│' || r == '└' {
			return i
		}
	}
	return -1
}

// yLabels are the chart's Y labels, bottom up, with their rows.
func yLabels(t *testing.T, cells [][]rune) (vals []float64, rows []int) {
	t.Helper()
	for y := len(cells) - 1; y >= 0; y-- {
		ax := axisColumn(cells[y])
		if ax < 0 {
			continue
		}
		if s := strings.TrimSpace(string(cells[y][:ax])); s != "" {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("Y label %q on row %d", s, y)
			}
			vals, rows = append(vals, v), append(rows, y)
		}
	}
	return vals, rows
}

// xLabels are the chart's X labels (the line under the axis), left to
// right, with the column each is centred on.
func xLabels(t *testing.T, cells [][]rune, suffix string) (vals []float64, cols []int) {
	t.Helper()
	axis := -1
	for y := range cells {
		if strings.ContainsRune(string(cells[y]), '└') {
			axis = y
		}
	}
	if axis < 0 || axis+1 >= len(cells) {
		t.Fatal("no X axis")
	}
	row := cells[axis+1]
	for x := 0; x < len(row); {
		if row[x] == ' ' {
			x++
			continue
		}
		end := x
		for end < len(row) && row[end] != ' ' {
			end++
		}
		s := strings.TrimSuffix(string(row[x:end]), suffix)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("X label %q at column %d", string(row[x:end]), x)
		}
		vals, cols = append(vals, v), append(cols, x+(end-x-1)/2)
		x = end
	}
	return vals, cols
}

func rising(vals []float64) bool {
	for i := 1; i < len(vals); i++ {
		if !(vals[i] > vals[i-1]) {
			return false
		}
	}
	return true
}

// smileOf is a smile of strikes from..to by step, each side's IV iv(k).
func smileOf(from, to, step float64, iv func(k float64) float64) []vol.Row {
	var rows []vol.Row
	for k := from; k <= to+1e-9; k += step {
		rows = append(rows, vol.Row{Strike: k, Call: vol.Quote{IV: iv(k)}, Put: vol.Quote{IV: iv(k)}})
	}
	return rows
}

// TestSmileMarksOnTheirSides: with the out-of-the-money sides merged, the
// legend's ○ put sits only left of spot and ● call only at or right of
// it, also where a wing's OTM side has no IV and the other side has one
// (the sandbox's 0DTE: far puts unbid, their calls deep in the money).
func TestSmileMarksOnTheirSides(t *testing.T) {
	rows := smileOf(680, 720, 1, func(k float64) float64 { return 0.12 + 0.0004*(k-700)*(k-700) })
	for i := range rows {
		if k := rows[i].Strike; k < 686 {
			rows[i].Put.IV = 0 // no bid: no IV on the OTM side
		} else if k > 714 {
			rows[i].Call.IV = math.NaN()
		}
	}
	const spot = 699.6
	for _, w := range []int{40, 78, 160} {
		c := smileChart(rows, spot, math.NaN(), false, w, 20)
		cells := plotCells(c)
		col := -1
		for _, row := range cells {
			for x, r := range row {
				if r == glyphSpot {
					col = x
				}
			}
		}
		if col < 0 {
			t.Fatalf("%d wide: no spot line", w)
		}
		puts, calls := 0, 0
		for y, row := range cells {
			for x, r := range row {
				switch {
				case r == glyphPut && x > col, r == glyphCall && x < col, r == glyphBoth:
					t.Errorf("%d wide: %c at column %d, row %d; spot at column %d", w, r, x, y, col)
				case r == glyphPut:
					puts++
				case r == glyphCall:
					calls++
				}
			}
		}
		if puts < 3 || calls < 3 {
			t.Errorf("%d wide: %d puts and %d calls drawn", w, puts, calls)
		}
	}
}

// TestVolChartLabelsRise: the smile's and the term structure's axis
// labels rise strictly (no label repeated, none out of order), IVs are
// never below zero, on the ranges where rounding bit: a flat smile, a
// smile within a few hundredths of a vol point, strikes half a dollar
// apart, a wide terminal.
func TestVolChartLabelsRise(t *testing.T) {
	smiles := map[string][]vol.Row{
		"flat":       smileOf(590, 610, 5, func(float64) float64 { return 0.18 }),
		"narrow IV":  smileOf(590, 610, 1, func(k float64) float64 { return 0.18 + 0.000001*(k-600)*(k-600) }),
		"half":       smileOf(99, 101, 0.5, func(k float64) float64 { return 0.30 + 0.01*(k-100)*(k-100) }),
		"wide range": smileOf(400, 800, 5, func(k float64) float64 { return 0.10 + 0.000004*(k-600)*(k-600) }),
	}
	for name, rows := range smiles {
		for _, sz := range [][2]int{{36, 12}, {78, 20}, {160, 45}} {
			cells := plotCells(smileChart(rows, rows[len(rows)/2].Strike, math.NaN(), true, sz[0], sz[1]))
			ys, _ := yLabels(t, cells)
			xs, _ := xLabels(t, cells, "")
			if len(ys) < 2 || !rising(ys) || ys[0] < 0 {
				t.Errorf("%s %dx%d: IV labels %v", name, sz[0], sz[1], ys)
			}
			if len(xs) < 2 || !rising(xs) {
				t.Errorf("%s %dx%d: strike labels %v", name, sz[0], sz[1], xs)
			}
		}
	}
	d := volFixture()
	for _, sz := range [][2]int{{36, 12}, {78, 20}, {160, 45}} {
		cells := plotCells(termChart(d.Figures, d.Selected, d.Earnings, sz[0], sz[1]))
		ys, _ := yLabels(t, cells)
		xs, _ := xLabels(t, cells, "d")
		if len(ys) < 2 || !rising(ys) || ys[0] < 0 || len(xs) < 2 || !rising(xs) {
			t.Errorf("term %dx%d: IV labels %v, DTE labels %v", sz[0], sz[1], ys, xs)
		}
	}
}

// TestSmileLabelsStandAtTheirValues: a label names the value of the marks
// on its line and in its column: a smile whose IVs and strikes are round
// has each mark where the axis labels say it is.
func TestSmileLabelsStandAtTheirValues(t *testing.T) {
	// IV 16 % at 600, a point more every 5 strikes out.
	rows := smileOf(585, 615, 5, func(k float64) float64 { return 0.16 + math.Abs(k-600)/500 })
	for _, sz := range [][2]int{{60, 16}, {78, 20}, {120, 30}} {
		cells := plotCells(smileChart(rows, 600, math.NaN(), true, sz[0], sz[1]))
		ys, yrows := yLabels(t, cells)
		xs, xcols := xLabels(t, cells, "")
		markAt := func(x, y int) bool { return x >= 0 && x < len(cells[y]) && cells[y][x] == glyphBoth }
		for i, v := range ys {
			want := 0
			for _, r := range rows {
				if math.Abs(r.Call.IV*100-v) < 1e-9 {
					want++
				}
			}
			got := 0
			for x := range cells[yrows[i]] {
				if markAt(x, yrows[i]) {
					got++
				}
			}
			if want > 0 && got != want {
				t.Errorf("%dx%d: row of label %v holds %d marks, want %d:\n%s", sz[0], sz[1], v, got, want, dump(cells))
			}
		}
		for i, v := range xs {
			found := false
			for y := range cells {
				found = found || markAt(xcols[i], y)
			}
			if math.Mod(v, 5) == 0 && v >= 585 && v <= 615 && !found {
				t.Errorf("%dx%d: no mark above label %v (column %d):\n%s", sz[0], sz[1], v, xcols[i], dump(cells))
			}
		}
		if len(ys) < 3 || len(xs) < 3 {
			t.Errorf("%dx%d: labels %v and %v", sz[0], sz[1], ys, xs)
		}
	}
}

func dump(cells [][]rune) string {
	var b strings.Builder
	for _, r := range cells {
		b.WriteString(string(r))
		b.WriteByte('\n')
	}
	return b.String()
}
