package model

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/alerts"
	"chainwatch/model/common"
	"chainwatch/model/contract"
	"chainwatch/model/frameclock"
	"chainwatch/model/link"
	"chainwatch/model/positioning"
	"chainwatch/model/positions"
	"chainwatch/model/scanner"
	"chainwatch/model/strategy"
	"chainwatch/model/symbols"
	"chainwatch/model/watch"
	"chainwatch/model/watchlist"
	"chainwatch/theme"
)

// Config is what the TUI needs from the command line (common.Config).
type Config = common.Config

// App is the root model. It routes: keys to the overlay or the top page,
// the monitor's replies and the pages' own messages to every page, and
// carries out the Actions the pages and overlays return. The pages hold
// the state; App holds the stack, the overlay, the query, the monitor
// link, the status bar and the frame.
type App struct {
	cfg    Config
	sh     *common.Common
	ctx    context.Context
	cancel context.CancelFunc

	q       feed.Query
	link    link.Link                    // the data monitor; what to want: feeds.go
	scr     screen                       // the terminal: size, focus, theme, frame, notice
	built   [common.NumPages]common.Page // every page, built once, by its PageID
	stack   []common.PageID              // the pages shown; the watch screen at the bottom
	overlay common.Overlay               // help, a prompt or the scanner; nil: none
	scan    *scanner.Model               // built once: its runs outlive the modal
	syms    symbols.Session              // the symbols the session knows and does not
	settle  common.Settle                // the startup's idle heap handed back once
}

// screen is the terminal's: its size and focus, the last input (for
// idleness), the theme, the frame drawn and the status bar's notice.
type screen struct {
	width, height int
	focused       bool
	lastInput     time.Time
	darkSet       bool // the theme was chosen by config, not the terminal
	dark          bool
	frame         frameclock.Clock
	notice        common.Notice // a note for the status bar that is not a fetch error
}

// New builds the screen and its pages. It does no I/O: the first fetches
// start from Init.
func New(cfg Config) *App {
	cfg = cfg.WithDefaults()
	dark := cfg.Theme != "light"
	sh := common.New(cfg, dark)
	ctx, cancel := context.WithCancel(context.Background())
	a := &App{
		cfg: cfg, sh: sh, ctx: ctx, cancel: cancel,
		link: link.New(cfg.Monitor, feed.MonitorOptions{Fetcher: feed.Source{Client: cfg.Client, Now: cfg.Now},
			Clock: feed.RealClock{NowFunc: cfg.Now}, Budget: cfg.Budget}, cfg.Now()),
		scr: screen{
			focused: true, lastInput: cfg.Now(),
			darkSet: cfg.Theme == "dark" || cfg.Theme == "light", dark: dark,
		},
		stack: []common.PageID{common.PageWatch},
		syms:  symbols.New(cfg.Recent, cfg.SaveRecent),
	}
	scr, vol := watch.New(sh, cfg)
	a.built = [common.NumPages]common.Page{
		common.PageWatch: scr, common.PageVol: vol,
		common.PageContract:  contract.NewPage(ctx, sh, cfg.BlockSize),
		common.PageWatchlist: watchlist.NewPage(sh, cfg), common.PagePositioning: positioning.NewPage(sh),
		common.PageStrategy: strategy.NewPage(sh, cfg), common.PagePositions: positions.NewPage(sh, cfg), common.PageAlerts: alerts.NewPage(sh, cfg),
	}
	if cfg.StartOnWatchlist {
		a.stack = append(a.stack, common.PageWatchlist)
	}
	a.changeQuery(feed.Query{Symbol: strings.ToUpper(cfg.Symbol), Mode: cfg.Mode, Date: cfg.Date})
	a.scan = scanner.New(ctx, sh, scanner.Options{
		Saved: cfg.Scans, Save: cfg.SaveScan, Delete: cfg.DeleteScan,
		Mode:       func() api.Mode { return a.q.Mode },
		PointsLeft: func() (int64, bool) { v, ok := a.link.Snap.Stats.PointsLeft.Get(); return int64(v), ok },
	})
	return a
}

// Init starts the first fetches and the clock, and asks the terminal for
// its background so the theme can follow it.
func (a *App) Init() tea.Cmd {
	a.syncFeeds()
	ctx, src, mode := a.ctx, a.sh.Source(), a.q.Mode
	exchanges := func() tea.Msg { return src.Exchanges(ctx, mode) }
	cmds := []tea.Cmd{a.link.Listen(a.ctx), a.armFrame(), exchanges}
	if !a.scr.darkSet {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	a.prepare()
	a.render()
	return tea.Batch(cmds...)
}

// Update routes a message. It never blocks: every fetch is a tea.Cmd.
// After it, the monitor is told what the pages want, the frame is drawn,
// and the frame clock is armed for the next change the screen can show
// by itself.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(frameclock.TickMsg); ok && a.scr.frame.Outdated(m) {
		return a, nil // outdated by a sooner tick: nothing to draw
	}
	cmd := a.update(msg)
	a.syncFeeds()
	a.prepare()
	cmd = tea.Batch(cmd, a.armFrame())
	a.render()
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
			a.scan.Restyle()
		}
		return nil
	case tea.FocusMsg, tea.BlurMsg:
		_, a.scr.focused = msg.(tea.FocusMsg)
		return nil
	case tea.KeyPressMsg:
		return a.onKey(msg)
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		a.scr.lastInput = a.sh.Now()
		if a.overlay != nil || a.scr.width == 0 {
			return nil // the mouse is the top page's while no overlay is open
		}
		return a.send(a.topID(), msg)
	case frameclock.TickMsg:
		a.scr.frame.Ticked() // drawn again, the next tick armed
		return nil
	case common.FlashDoneMsg, feed.FetchingMsg:
		return nil // drawn again: a flash faded, a countdown ended
	case symbols.SaveErrMsg:
		a.scr.notice = common.Notice{Text: "recent symbols not saved: " + msg.Err.Error()}
		return nil
	case link.Msg:
		return tea.Batch(a.toPages(msg.Msg), a.link.Listen(a.ctx), a.settle.After(a.cfg.ReturnStartupMemory, msg.Msg))
	case feed.ExchangesMsg:
		return a.toPages(msg)
	case scanner.DoneMsg:
		// The service charged the scan whatever the modal does now.
		a.link.Mon.Outside(msg.Out.Resp)
		return a.onScanner(msg)
	}
	// The rest is the pages' own (timers, saves) or the scanner's: its
	// field list, and huh's own messages (moving between fields,
	// suggestions, the cursor's blink).
	return tea.Batch(a.toPages(msg), a.onScanner(msg))
}

// Recent is the recent-symbols list, most recent first.
func (a *App) Recent() []string { return append([]string(nil), a.syms.Recent...) }

// Query is what the screen is looking at.
func (a *App) Query() feed.Query { return a.q }

// quit cancels every request in flight and ends the program; bubbletea
// restores the terminal.
func (a *App) quit() tea.Cmd { a.Close(); return tea.Quit }

// Close ends what the screen started (once): the watchlist's last edit,
// the requests in flight, the subscription. chainwatch serve calls it when
// a session ends without a quit (the client went away).
func (a *App) Close() {
	if a.ctx.Err() == nil {
		for _, p := range a.built {
			p.Update(common.QuitMsg{}) // the watchlist's last edit, if not saved yet
		}
		a.cancel()
		a.link.Close()
	}
}
