package model

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/calendar"
	"chainwatch/model/chain"
	"chainwatch/model/common"
	"chainwatch/model/contract"
	"chainwatch/model/scanner"
	"chainwatch/model/tape"
	"chainwatch/model/vol"
	"chainwatch/model/watchlist"
	"chainwatch/scan"
	"chainwatch/theme"
)

// Config is what the watch screen needs from the command line.
type Config struct {
	Client       *api.Client
	Source       string // "SANDBOX" (the embedded sandbox), "LOCAL" (a service on loopback) or "PRODUCTION"
	BaseURL      string
	Symbol       string   // default SPY
	Mode         api.Mode // default live
	Date         api.Date // 0: today; a past day is historical
	Budget       feed.Budget
	BlockSize    int64 // tape prints of at least this size are blocks; default 100
	TapeCapacity int   // trades the tape holds; default 5000
	Theme        string
	ColorBlind   bool
	NoColor      bool
	// NoFlash draws changed cells without their highlight (--no-flash): no
	// flash to draw and none to fade, for a slow link or a trader who
	// finds it distracting.
	NoFlash  bool
	FirstRun bool
	Recent   []string
	Now      func() time.Time
	// ClockSpeed is how many times as fast as real time Now runs
	// (--sandbox-speed); default 1.
	ClockSpeed float64
	SaveRecent func([]string) error
	// Scans are the saved scans of the config file; SaveScan and
	// DeleteScan write it (nil: saving is not available).
	Scans      []scan.Scan
	SaveScan   func(scan.Scan) error
	DeleteScan func(name string) error
	// Watchlist is the watchlist page's symbols; WatchlistSkipped the
	// config file's entries not used, worded with their lines;
	// SaveWatchlist writes the list (nil: it lasts for the session).
	// StartOnWatchlist opens the page first (--watchlist).
	Watchlist        []string
	WatchlistSkipped []string
	SaveWatchlist    func([]string) error
	StartOnWatchlist bool
	// Monitor is the data monitor the screen subscribes to; nil: one of
	// its own on Client, Now and Budget.
	Monitor *feed.Monitor
}

// pane is where movement keys go.
type pane int

const (
	paneLadder pane = iota
	paneTape
	paneCalendar
	numPanes
)

// App is the root model. It routes: keys to the focused pane or the
// prompt, replies to the pane they belong to, timers to the poller. The
// panes hold the state; App holds only what is between them.
type App struct {
	cfg    Config
	sh     *common.Common
	ctx    context.Context
	cancel context.CancelFunc

	q       feed.Query
	link    feedLink       // the data monitor (feeds.go)
	w       watchState     // the watch screen's panes and what it shows
	scr     screen         // the terminal: size, focus, theme, frame, notice
	pages   []page         // the stack; the watch screen at the bottom
	overlay common.Overlay // help, a prompt or the scanner; nil: none
	parts   pageParts      // the pages' parts and the scanner, built once
	syms    symbols        // the symbols the session knows and does not
}

// watchState is the watch screen's: its panes, which of them has the
// focus and shows, and the first-run banner over the ladder.
type watchState struct {
	chain             *chain.Model
	tape              *tape.Model
	cal               *calendar.Model
	focus             pane
	showTape, showCal bool
	banner            bool
}

// screen is the terminal's: its size and focus, the last input (for
// idleness), the theme, the frame drawn and the status bar's notice.
type screen struct {
	width, height int
	focused       bool
	lastInput     time.Time
	darkSet       bool // the theme was chosen by config, not the terminal
	dark          bool
	frame         frameClock
	notice        string // a note for the status bar that is not a fetch error
}

// pageParts are the parts built once and kept while their page is not
// on the stack: the scanner's runs outlive the modal, the watchlist its
// page, the vol page's smile mode and the contract page's generation.
type pageParts struct {
	scan     *scanner.Model
	vol      *vol.Model
	wl       watchPage
	contract contractRoute // the contract page (app_contract.go)
}

// symbols are the recent symbols, most recent first, and those the
// service answered 204 for this session.
type symbols struct {
	recent, unknown []string
}

// New builds the watch screen. It does no I/O: the first fetches start
// from Init.
func New(cfg Config) *App {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Symbol == "" {
		cfg.Symbol = config.DefaultSymbol
	}
	if cfg.Mode == "" {
		cfg.Mode = api.Live
	}
	if cfg.BlockSize <= 0 {
		cfg.BlockSize = config.DefaultBlockSize
	}
	if cfg.TapeCapacity <= 0 {
		cfg.TapeCapacity = config.DefaultTapeSize
	}
	if !(cfg.ClockSpeed > 0) {
		cfg.ClockSpeed = 1
	}
	if cfg.Budget == (feed.Budget{}) {
		cfg.Budget = feed.DefaultBudget()
	}
	dark := cfg.Theme != "light"
	sh := &common.Common{
		Styles: theme.New(theme.ByName(dark, cfg.ColorBlind), cfg.NoColor),
		Keys:   keymap.Default(),
		Prompt: keymap.Prompt(),
		Client: cfg.Client,
		Now:    cfg.Now,
		Flash:  config.FlashFor,
	}
	if cfg.NoFlash {
		sh.Flash = 0
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &App{
		cfg: cfg, sh: sh, ctx: ctx, cancel: cancel,
		link: newFeedLink(cfg),
		w: watchState{
			chain: chain.New(sh), tape: tape.New(sh, cfg.TapeCapacity, cfg.BlockSize), cal: calendar.New(sh),
			showTape: true, showCal: true, banner: cfg.FirstRun,
		},
		scr: screen{
			focused: true, lastInput: cfg.Now(),
			darkSet: cfg.Theme == "dark" || cfg.Theme == "light", dark: dark,
		},
		pages: []page{watchScreen{}},
		parts: pageParts{vol: vol.New(sh), wl: newWatchPage(sh, cfg)},
		syms:  symbols{recent: append([]string(nil), cfg.Recent...)},
	}
	a.pages[0] = watchScreen{a}
	if cfg.StartOnWatchlist {
		a.push(watchlistPage{a})
	}
	a.parts.contract.page = contract.New(ctx, sh, cfg.BlockSize)
	a.q = feed.Query{Symbol: strings.ToUpper(cfg.Symbol), Mode: cfg.Mode, Date: cfg.Date, Gen: 1}
	a.setQuery(a.q)
	a.parts.scan = scanner.New(ctx, sh, scanner.Options{
		Saved: cfg.Scans, Save: cfg.SaveScan, Delete: cfg.DeleteScan,
		Mode: func() api.Mode { return a.q.Mode }, PointsLeft: a.pointsLeft,
	})
	return a
}

// Init starts the first fetches and the clock, and asks the terminal for
// its background so the theme can follow it.
func (a *App) Init() tea.Cmd {
	a.syncFeeds()
	cmds := []tea.Cmd{listenCmd(a.ctx, a.link.sub), a.armFrame(), fetchExchangesCmd(a.ctx, a.sh, a.q.Mode)}
	if !a.scr.darkSet {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	a.draw()
	return tea.Batch(cmds...)
}

// Update routes a message. It never blocks: every fetch is a tea.Cmd.
// After it, the frame clock is armed for the next change the screen can
// show by itself.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(frameMsg); ok && m.gen != a.scr.frame.gen {
		return a, nil // outdated by a sooner tick: nothing to draw
	}
	cmd := a.update(msg)
	a.syncFeeds()
	cmd = tea.Batch(cmd, a.armFrame())
	a.draw()
	return a, cmd
}

// update is Update's routing.
func (a *App) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.scr.width, a.scr.height = msg.Width, msg.Height
		return nil
	case tea.BackgroundColorMsg:
		if !a.scr.darkSet && msg.IsDark() != a.scr.dark {
			a.scr.dark = msg.IsDark()
			a.sh.Styles = theme.New(theme.ByName(a.scr.dark, a.cfg.ColorBlind), a.cfg.NoColor)
			a.parts.scan.Restyle()
		}
		return nil
	case tea.FocusMsg:
		a.scr.focused = true
		return nil
	case tea.BlurMsg:
		a.scr.focused = false
		return nil
	case tea.KeyPressMsg:
		return a.onKey(msg)
	case tea.MouseClickMsg:
		return a.onMouse(msg.Mouse(), false)
	case tea.MouseWheelMsg:
		return a.onMouse(msg.Mouse(), true)
	case frameMsg:
		return a.onFrame()
	case flashDoneMsg:
		return nil
	case saveErrMsg:
		a.scr.notice = "recent symbols not saved: " + msg.err.Error()
		return nil
	case feed.QuotesMsg, feed.EventsMsg, watchlist.Msg:
		return a.onWatchlistMsg(msg)
	}
	if cmd, ok := a.onFeed(msg); ok {
		return cmd
	}
	// The rest is the scanner's: its field list, and huh's own messages
	// (moving between fields, suggestions, the cursor's blink).
	return a.onScanner(msg)
}

// Recent is the recent-symbols list, most recent first.
func (a *App) Recent() []string { return append([]string(nil), a.syms.recent...) }

// feed.Query is what the screen is looking at.
func (a *App) Query() feed.Query { return a.q }

// quit cancels every request in flight and ends the program; bubbletea
// restores the terminal.
func (a *App) quit() tea.Cmd {
	// The last edit of the watchlist, if its save had no time to run; a
	// failure is the save function's to report (after the screen).
	_ = a.parts.wl.m.Flush()
	a.cancel()
	a.closeFeeds()
	return tea.Quit
}
