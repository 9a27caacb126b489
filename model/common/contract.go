package common

import (
	"chainwatch/api"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// Pane is a part of a page (ladder, tape, calendar; the watchlist's, the
// contract's and the vol page's models). Its page sizes and focuses it,
// hands it its messages, and draws what View returns: exactly the set
// height in lines, each exactly the set width in cells. Self is the
// part's own type, so Update returns it as bubbles' components do.
//
// A pane never reaches into the root or into another part: what its page
// needs from it (the selected contract, the expiry) it reads from the
// pane's exported state after Update.
type Pane[Self any] interface {
	help.KeyMap
	SetSize(width, height int)
	SetFocused(focused bool)
	Update(msg tea.Msg) (Self, tea.Cmd)
	View() []string
}

// Overlay floats above the screen (help, symbol and date prompts, the
// scanner, confirmations). Its Update returns an Action for the root to
// carry out instead of changing the screen itself.
type Overlay interface {
	help.KeyMap
	SetSize(width, height int)
	Update(msg tea.Msg) (tea.Cmd, Action)
	View() []string
}

// Action is what a page or an overlay asks of the root. nil is nothing.
type Action interface{ action() }

// Close asks the root to close the overlay.
type Close struct{}

// PickSymbol asks the root to close the overlay and watch Symbol. Known:
// the session knows it (recent, listed, popular, or found by a scan); one
// it does not is looked up before the screen leaves the symbol it is on.
type PickSymbol struct {
	Symbol string
	Known  bool
}

// PickDate asks the root to close the overlay and show Date's session
// (zero: today, live).
type PickDate struct{ Date api.Date }

// OpenContract shows OSI on the contract page: the message an Open of
// the page carries to it.
type OpenContract struct{ OSI string }

// Notice asks the root to show Text in the status bar: a warning (⚠,
// in the error tone) unless Info says it is word of something done or
// under way ("saved as position 1", "alert armed"), drawn plain: a ⚠ on
// every line would leave the mark meaning nothing.
type Notice struct {
	Text string
	Info bool
}

// Quit asks the root to end the program.
type Quit struct{}

func (Close) action()        {}
func (PickSymbol) action()   {}
func (PickDate) action()     {}
func (OpenContract) action() {}
func (Notice) action()       {}
func (Quit) action()         {}

// Frame is the size and focus the root gives a pane or page; a part embeds
// it to meet SetSize and SetFocused and reads W, H and Focused in View.
type Frame struct {
	W, H    int
	Focused bool
}

// SetSize sets the size View draws; a negative one is none.
func (f *Frame) SetSize(width, height int) { f.W, f.H = max(width, 0), max(height, 0) }

// SetFocused says whether the movement keys are the part's.
func (f *Frame) SetFocused(focused bool) { f.Focused = focused }

// WheelStep is a turn of the mouse wheel as a step: -1 up, 1 down, 0 for
// any other button. Every page scrolls by it.
func WheelStep(m tea.Mouse) int {
	switch m.Button {
	case tea.MouseWheelUp:
		return -1
	case tea.MouseWheelDown:
		return 1
	}
	return 0
}

// Laid is the size and the lines of a page drawn when its size or its
// data change, not on every frame: its layout sets Lines for W x H, and
// View returns them. The strategy and positions pages embed it.
type Laid struct {
	W, H  int
	Lines []string
}

// Resize records the size and reports whether it changed, when the page
// lays its lines out again.
func (l *Laid) Resize(width, height int) bool {
	if width == l.W && height == l.H {
		return false
	}
	l.W, l.H = width, height
	return true
}

// View is the lines as laid out, or blank ones of the height before the
// first layout at it.
func (l *Laid) View() []string {
	if len(l.Lines) != l.H {
		return make([]string, l.H)
	}
	return l.Lines
}
