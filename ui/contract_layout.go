package ui

// ContractLayout is where the parts of the contract page go in its
// width x height (the screen above the status bar).
type ContractLayout struct {
	Header, Chart, Summary, Trades Rect
	Wide                           bool
}

// Heights of the contract page's fixed parts.
const (
	contractHeaderH  = 3
	contractSummaryH = 3 // two lines of figures, the cost
	contractSummaryW = 5 // beside a tall chart: four lines of figures
	contractChartMin = 8
)

// NewContractLayout lays the page out. From 120 columns the chart and the
// summary sit on the left and the time and sales fill the right, as a
// trader reads a chart beside its prints; below that they stack: chart,
// summary, then the prints with what is left (at least a few rows).
func NewContractLayout(width, height int) ContractLayout {
	var l ContractLayout
	width, height = max(width, 0), max(height, 0)
	l.Header = Rect{0, 0, width, min(contractHeaderH, height)}
	bodyY := contractHeaderH
	bodyH := height - bodyY
	if bodyH <= 0 || width <= 0 {
		return l
	}
	l.Wide = width >= wideFrom
	if l.Wide {
		lw := (width - 1) / 2
		sumH := min(contractSummaryW, bodyH/3)
		l.Chart = Rect{0, bodyY, lw, bodyH - sumH}
		l.Summary = Rect{0, bodyY + bodyH - sumH, lw, sumH}
		l.Trades = Rect{lw + 1, bodyY, width - lw - 1, bodyH}
		return l
	}
	sumH := min(contractSummaryH, bodyH)
	chartH := min(max(contractChartMin, bodyH*40/100), bodyH-sumH)
	l.Chart = Rect{0, bodyY, width, chartH}
	l.Summary = Rect{0, bodyY + chartH, width, sumH}
	l.Trades = Rect{0, bodyY + chartH + sumH, width, bodyH - chartH - sumH}
	return l
}
