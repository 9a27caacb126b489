package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"chainwatch/theme"
)

// The smallest terminal the watch screen is drawn on. Below it the panes
// would be cut into something unreadable, so the app shows TooSmallMessage
// instead.
const (
	minFrameW = 80
	minFrameH = 24
)

// Fixed parts of the frame and the pane sizes the layout is built from.
const (
	headerH      = 2
	tabsH        = 1
	stripH       = 1 // the expiry strip under the tabs (ATM IV, expected move)
	statusH      = 1
	wideFrom     = 120 // from this width the panes sit in a right-hand column
	detailsWH    = 8   // details pane in the wide layout
	detailsNH    = 2   // details lines under the ladder in the narrow layout
	calendarH    = 9   // calendar pane in the wide layout (at most)
	calendarW    = 34  // calendar beside the tape in the narrow layout
	stripMinH    = 7   // bottom strip of the narrow layout (at least)
	calStripMinH = 5   // the same with the calendar alone in it
)

// MinLadderStrikes is the fewest strikes the first-run banner leaves the
// ladder: below that it goes over the strip under the ladder instead.
const MinLadderStrikes = 10

// Rect is a pane's place in the frame, in cells. A Rect with no width or
// no height is a pane that is not shown.
type Rect struct{ X, Y, W, H int }

// Empty reports whether the rect is not shown.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Layout is where every part of the watch screen goes for one terminal
// size. The model computes it once per resize (or when a pane is toggled)
// and hands each pane its rect; a zero Rect is a pane not shown.
type Layout struct {
	Header, Tabs, Strip, Ladder, Details, Tape, Calendar, Status Rect
	Banner                                                       Rect // the first-run banner (WithBanner)
	Wide                                                         bool
}

// WithBanner is l with room for a first-run banner of n lines: at the top
// of the ladder while the ladder keeps MinLadderStrikes strikes and at
// least half its height; else, in the narrow layout, at the top of the
// strip below (the tape and the calendar give up those rows while it
// shows), so that on 80x24 the chain keeps every strike it had; else over
// half the ladder at most.
func (l Layout) WithBanner(n int) Layout {
	lad := l.Ladder
	if n <= 0 || lad.Empty() {
		return l
	}
	strip := l.Tape
	if strip.Empty() {
		strip = l.Calendar // the narrow strip: both start on one row
	}
	onLadder := LadderRows(lad.H-n) >= MinLadderStrikes && n <= lad.H/2
	if !onLadder && !l.Wide && !strip.Empty() && strip.H >= n {
		l.Banner = Rect{0, strip.Y, l.Header.W, n}
		for _, r := range []*Rect{&l.Tape, &l.Calendar} {
			if !r.Empty() {
				r.Y, r.H = r.Y+n, r.H-n
			}
		}
		return l
	}
	n = min(n, lad.H/2)
	l.Banner = Rect{lad.X, lad.Y, lad.W, n}
	l.Ladder.Y, l.Ladder.H = lad.Y+n, lad.H-n
	return l
}

// NewLayout lays the frame out for width x height. Wide terminals (at
// least 120 columns) keep the ladder on the left at full height and stack
// details, tape and calendar in a right-hand column, because a trader
// reads the chain and the tape side by side. Narrow ones put the ladder on
// top and the tape and calendar in a strip below it, which keeps the
// ladder wide enough for its bid/ask columns on 80 columns.
//
// Panes abut without border lines except for the one-cell vertical gap
// between columns, which Compose draws as "│": on 24 lines every line is
// worth a row of data.
func NewLayout(width, height int, tapeVisible, calendarVisible bool) Layout {
	width, height = max(width, 0), max(height, 0)
	var l Layout
	l.Header = Rect{0, 0, width, min(headerH, height)}
	if height > headerH {
		l.Tabs = Rect{0, headerH, width, tabsH}
	}
	if height > headerH+tabsH {
		l.Status = Rect{0, height - statusH, width, statusH}
	}
	bodyY := headerH + tabsH
	if height >= minFrameH {
		// The strip costs the ladder a row, so it comes with a frame the
		// screen is drawn on at all.
		l.Strip = Rect{0, bodyY, width, stripH}
		bodyY += stripH
	}
	bodyH := height - bodyY - statusH
	if bodyH <= 0 || width <= 0 {
		return l
	}
	l.Wide = width >= wideFrom
	if l.Wide && !tapeVisible && !calendarVisible {
		// Tape and calendar hidden: the ladder takes their width, which
		// is why a trader hides them, and the details a band beneath.
		detH := min(detailsNH, bodyH)
		l.Ladder = Rect{0, bodyY, width, bodyH - detH}
		l.Details = Rect{0, bodyY + bodyH - detH, width, detH}
		return l
	}
	if l.Wide {
		rw := min(max(width*38/100, 52), 72)
		lw := width - rw - 1
		x := lw + 1
		l.Ladder = Rect{0, bodyY, lw, bodyH}
		detH := min(detailsWH, bodyH)
		rest := bodyH - detH
		y := bodyY + detH
		switch {
		case tapeVisible && calendarVisible:
			// The calendar changes a few times a day; the tape every
			// second. On short terminals the calendar gives way so the
			// tape keeps at least half of what is left.
			calH := min(calendarH, rest/2)
			l.Tape = Rect{x, y, rw, rest - calH}
			l.Calendar = Rect{x, y + rest - calH, rw, calH}
		case tapeVisible:
			l.Tape = Rect{x, y, rw, rest}
		default:
			l.Calendar = Rect{x, y, rw, rest}
		}
		l.Details = Rect{x, bodyY, rw, detH}
		return l
	}
	stripH := 0
	switch {
	case tapeVisible:
		stripH = max(stripMinH, bodyH*40/100)
	case calendarVisible:
		// Hiding the tape is how a trader on 80x24 makes room for the
		// ladder: the calendar alone (a few events) takes a smaller strip,
		// which leaves the ladder MinLadderStrikes strikes.
		stripH = max(calStripMinH, bodyH*25/100)
	}
	detH := detailsNH
	// Below 80x24 the strip and details still get their share; whatever is
	// left (maybe nothing) is the ladder's.
	ladderH := max(bodyH-detH-stripH, 0)
	if ladderH == 0 {
		stripH = min(stripH, bodyH)
		detH = min(detH, bodyH-stripH)
	}
	l.Ladder = Rect{0, bodyY, width, ladderH}
	l.Details = Rect{0, bodyY + ladderH, width, detH}
	y := bodyY + ladderH + detH
	switch {
	case tapeVisible && calendarVisible && width > calendarW+1:
		l.Tape = Rect{0, y, width - calendarW - 1, stripH}
		l.Calendar = Rect{width - calendarW, y, calendarW, stripH}
	case tapeVisible:
		l.Tape = Rect{0, y, width, stripH}
	case calendarVisible:
		l.Calendar = Rect{0, y, width, stripH}
	}
	return l
}

// BodyRect is everything between the header and the status bar of a
// width x height frame, which stay live around it: the scanner's modal,
// the vol page's charts.
func BodyRect(width, height int) Rect {
	lay := NewLayout(width, height, true, true)
	top, bottom := lay.Header.H, max(height, 0)
	if !lay.Status.Empty() {
		bottom = lay.Status.Y
	}
	return Rect{Y: top, W: max(width, 0), H: max(bottom-top, 0)}
}

// TooSmall reports whether the terminal is below the 80x24 the watch
// screen needs.
func TooSmall(width, height int) bool { return width < minFrameW || height < minFrameH }

// TooSmallMessage is the whole screen when the terminal is too small: a
// centred sentence saying what is needed and what there is, so the user
// knows to resize rather than wonder where the chain went. Not a hot path.
func TooSmallMessage(width, height int, st *theme.Styles) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	msg := "chainwatch needs at least 80x24 (now " + strconv.Itoa(width) + "x" + strconv.Itoa(height) + ")"
	body := st.Warn.Width(min(width, len(msg))).Align(lipgloss.Center).Render(msg) + "\n" +
		st.Muted.Width(min(width, len(msg))).Align(lipgloss.Center).Render("enlarge the terminal window")
	placed := lipgloss.Place(width, height, lipgloss.Center, lipgloss.Center, body)
	return strings.Join(paneBlock(placed, width, height), "\n")
}
