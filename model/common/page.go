package common

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
)

// Page fills the screen above the status bar (the watch screen, the vol,
// contract and watchlist pages). The root builds each page once, keeps a
// stack of them (the watch screen at the bottom, no page twice), and uses
// only this contract: it sizes and focuses every page, hands the top one
// its keys and mouse, hands every one the monitor's replies, the query
// (QueryMsg), what the overlays picked and every message it does not
// know, and draws the top one's View over its status bar. What a page
// wants of the root or of another page travels as an Action.
//
// What is polled the root works out from the stack: the top page is
// shown, and each page under it while every page above it does not
// cover it. The wants of a page that is not shown are handed to the
// monitor Hidden, whatever the page says, so a page forgotten here
// cannot poll behind the trader's back.
type Page interface {
	help.KeyMap
	// SetSize is the page's size: the frame less the status bar.
	SetSize(width, height int)
	// SetFocused is true for the top page while no prompt takes the keys.
	SetFocused(focused bool)
	Update(msg tea.Msg) (tea.Cmd, Action)
	// View is exactly the set size; it writes nothing.
	View() []string
	// Covers reports whether the page, on the stack, hides the pages
	// under it, whose feeds are then not polled.
	Covers() bool
	// Wants are the page's feeds for the monitor, each Hidden where the
	// pane that shows it does not (the tape toggled off). A page keeps
	// wanting its feeds while it is covered or off the stack (the root
	// hides them), so the monitor keeps what it learnt of them.
	Wants(s Sight) []feed.Want
	// Status is what the status bar and the window title need of the page
	// while it is on top.
	Status(now time.Time) Status
}

// Sight is what a page's wants depend on besides the page: the watch
// screen's mode and day, and whether the page is on the stack (the
// contract page forgets its contract once closed).
type Sight struct {
	Mode       api.Mode
	Historical bool
	OnStack    bool
}

// Background is a page with feeds that must be fetched whether it shows
// or not: the watch screen's lookup of a symbol picked, which must finish
// under another page. The root never hides them.
type Background interface{ Background() []feed.Want }

// Status is what the root's status bar needs of the top page.
type Status struct {
	Shown feed.Feed // the feed whose refresh the bar counts down
	// Next, when NextCost > 0, is counted down instead of Shown while it
	// is planned and the session is not paused, with its cost (the vol
	// page's term structure: what the page adds to the bill).
	Next     feed.Feed
	NextCost int
	Errs     []error // the page's parts' failures
	Hint     string  // the keys a newcomer needs first
	Title    string  // the window's title
	// Ticks says the page shows a count in seconds (an age) at now.
	Ticks bool
	// Below asks for the failures and the ticking of the page beneath too:
	// the contract page, over the watch screen, reports both.
	Below bool
}

// Known is a page that knows symbols the symbol prompt completes from
// and trusts (the watchlist's).
type Known interface{ Known() []string }

// PageID names a page the root builds.
type PageID int

// The pages.
const (
	PageWatch PageID = iota
	PageVol
	PageContract
	PageWatchlist
	PagePositioning
	PageStrategy
	PagePositions
	PageAlerts
	NumPages
)

// QueryMsg is the watch screen's query, sent to every page when it
// changes (a symbol, a mode or a day picked).
type QueryMsg struct{ Query feed.Query }

// DrawMsg is sent to the pages on the stack before each frame is drawn,
// with the monitor's snapshot (due times, intervals, the points): the page makes
// ready there what its View draws, so that View writes nothing.
type DrawMsg struct{ Feeds feed.Snapshot }

// QuitMsg is sent to every page as the program ends: the last chance to
// write what waits to be saved.
type QuitMsg struct{}

// FlashDoneMsg redraws the screen once the flashes have faded.
type FlashDoneMsg struct{}

// FlashDone redraws once the flashes of new data have faded; with no
// flashes (--no-flash) there is nothing to wait for.
func FlashDone(c *Common) tea.Cmd {
	if c.Flash <= 0 {
		return nil
	}
	return tea.Tick(c.Flash+50*time.Millisecond, func(time.Time) tea.Msg { return FlashDoneMsg{} })
}

// SharedKey is the Action of a key every page means the same by: quit
// and help; nil for any other key.
func SharedKey(c *Common, k tea.KeyPressMsg) Action {
	switch {
	case key.Matches(k, c.Keys.Quit):
		return Quit{}
	case key.Matches(k, c.Keys.Help):
		return OpenHelp{}
	}
	return nil
}

// Open asks the root to push Page, then hand it Msg (nil: nothing). A
// page already on the stack is returned to: the pages above it are
// popped, as a browser's history goes back, so the stack never holds a
// page twice and esc always leaves the page shown.
type Open struct {
	Page PageID
	Msg  tea.Msg
}

// Back asks the root to pop the top page; a Symbol other than the one
// shown then changes the watch screen's query to it (the watchlist's
// "open the chain").
type Back struct{ Symbol string }

// ChangeQuery asks the root to show Query (a new generation is given),
// then hand the pages Msg (nil: nothing): the reply that confirmed a
// symbol looked up, made for that generation, which the pages then take.
type ChangeQuery struct {
	Query feed.Query
	Msg   tea.Msg
}

// Refresh asks the monitor to fetch Feeds now, whatever the timers say.
type Refresh struct{ Feeds []feed.Feed }

// Refetch asks the monitor to fetch Feed again with what it now wants
// (the ladder's expiry after the debounce).
type Refetch struct{ Feed feed.Feed }

// AskSymbol asks for the symbol prompt; Add: to add to the watchlist,
// whose Have are refused as already there.
type AskSymbol struct {
	Add  bool
	Have []string
}

// AskDate asks for the date prompt.
type AskDate struct{}

// OpenScanner asks for the scanner modal.
type OpenScanner struct{}

// OpenHelp asks for the help over the top page.
type OpenHelp struct{}

// Remember asks the root to put Symbol first among the recent symbols
// (its chain arrived with options).
type Remember struct{ Symbol string }

// NoSuchSymbol tells the root the service does not know Symbol.
type NoSuchSymbol struct{ Symbol string }

// ProposeAlert asks for the alert dialog over the top page, proposing a
// rule for what is selected: a contract of the ladder (Contract, its
// quote), a print of the tape (Print, its size and premium), an
// underlying (Price, IV30); Edit names a rule to edit instead. The alerts
// page builds the dialog (Overlayer).
type ProposeAlert struct {
	Symbol, Contract string
	Price, IV30      float64 // the underlying's; NaN unknown; IV30 in points
	Bid, Ask, Mid    float64 // the contract's
	IV               float64 // the contract's, a fraction
	Print            bool
	Size             int64
	Premium          float64
	Edit             string
}

// Floating is an overlay drawn over the whole frame (the help, the alert
// dialog), sized by it (ui.FrameSize): the root needs no size of its own
// for it.
type Floating interface{ Over(frame string) string }

// Overlayer is a page that builds the overlay an Action asks for (the
// alerts page, the alert dialog): the root holds the overlay, the page
// knows what is in it.
type Overlayer interface{ Overlay(act Action) Overlay }

func (ProposeAlert) action() {}
func (Open) action()         {}
func (Back) action()         {}
func (ChangeQuery) action()  {}
func (Refresh) action()      {}
func (Refetch) action()      {}
func (AskSymbol) action()    {}
func (AskDate) action()      {}
func (OpenScanner) action()  {}
func (OpenHelp) action()     {}
func (Remember) action()     {}
func (NoSuchSymbol) action() {}
