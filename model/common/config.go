package common

import (
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/scan"
	"chainwatch/theme"
)

// Config is what the TUI needs from the command line: the root and, of
// it, each page (the source, the tape's size, the watchlist's symbols).
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
	// ReturnStartupMemory hands the heap the startup left idle back to the
	// system once the first chain is drawn (common.Settle): the watch
	// command's screen sets it; a desk's sessions share one process and
	// do not.
	ReturnStartupMemory bool
	// Replay is `chainwatch replay`'s clock (nil: the screen is live):
	// its keys (keymap.Replay) pause it, change its speed and jump.
	Replay     Replay
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
	// PositionsPath is the positions file (positions.toml beside the
	// config file); "": positions are not saved.
	PositionsPath string
	// Monitor is the data monitor the screen subscribes to; nil: one of
	// its own on Client, Now and Budget.
	Monitor *feed.Monitor
	// Alerts are the alert rules evaluated on Monitor (nil: none, and the
	// alerts page says so); SaveAlert writes a rule made or edited on the
	// screen in place of the one named old, DeleteAlert drops one (nil:
	// rules last for the session). Desktop notifies through the terminal;
	// NoBell keeps the bell quiet. AlertsOff is why Alerts is nil when
	// there is a reason to say (a served trader's rule that does not
	// hold, with its file and line): the alerts page says it, and the
	// status bar once.
	Alerts      *alert.Engine
	SaveAlert   func(old string, r alert.Rule) error
	DeleteAlert func(name string) error
	Desktop     alert.Desktop
	NoBell      bool
	AlertsOff   string
}

// WithDefaults is cfg with every field left zero that has a default set
// to it (config's, once).
func (cfg Config) WithDefaults() Config {
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
	return cfg
}

// New is the Common of cfg, in the dark theme or the light one.
func New(cfg Config, dark bool) *Common {
	c := &Common{
		Styles: theme.New(theme.ByName(dark, cfg.ColorBlind), cfg.NoColor),
		Keys:   keymap.Default(),
		Prompt: keymap.Prompt(),
		Replay: keymap.Replay(),
		Client: cfg.Client,
		Now:    cfg.Now,
		Flash:  config.FlashFor,
	}
	if cfg.NoFlash {
		c.Flash = 0
	}
	return c
}
