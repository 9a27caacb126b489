package cmd

import (
	"fmt"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
)

// resolveSettings merges the flags, the config file and the defaults. The
// flags are checked first, so a bad flag is reported even when the config
// file would also fail. Then each concern takes the flag over the file
// over the default: the symbol and mode, the looks, the trades shown, the
// budget.
func resolveSettings(o *WatchOptions, now time.Time) (watchSettings, error) {
	s := watchSettings{
		symbol: config.DefaultSymbol, mode: api.Live, theme: config.DefaultTheme,
		budget:    feed.Budget{Share: config.DefaultBudgetShare},
		blockSize: config.DefaultBlockSize, tapeSize: config.DefaultTapeSize,
	}
	given, err := checkWatchFlags(o, now)
	if err != nil {
		return s, err
	}
	s.date = given.date
	fc, err := s.readConfigFile(o)
	if err != nil {
		return s, err
	}
	s.resolveData(given, &fc)
	s.resolveLooks(o, &fc)
	s.resolveTrades(o, &fc)
	s.resolveBudget(o, &fc)
	return s, nil
}

// givenFlags are the flags that are parsed, not only checked, before the
// config file is read: the symbol argument ("" none), --mode ("" not
// given) and --date (0 not given, or today).
type givenFlags struct {
	symbol string
	mode   api.Mode
	date   api.Date
}

// checkWatchFlags checks every flag given, in the order the errors are
// reported, before anything is read: a bad flag is the user's to fix
// first, whatever the config file holds.
func checkWatchFlags(o *WatchOptions, now time.Time) (givenFlags, error) {
	var g givenFlags
	if len(o.Args) == 1 {
		sym, err := config.ParseSymbol(o.Args[0])
		if err != nil {
			return g, err
		}
		g.symbol = sym
	}
	if o.Changed("mode") {
		m, err := config.ParseMode(o.Flags.mode)
		if err != nil {
			return g, fmt.Errorf("--mode %w", err)
		}
		g.mode = m
	}
	if o.Changed("date") {
		d, err := parseDate(o.Flags.date, now)
		if err != nil {
			return g, err
		}
		g.date = d
	}
	return g, checkValueFlags(o)
}

// checkValueFlags checks the flags whose value the config file may also
// set, by the file's own rule, so a flag and a key accept the same
// values. A table, in the order the errors are reported.
func checkValueFlags(o *WatchOptions) error {
	f := &o.Flags
	checks := [...]struct {
		flag  string
		check func() error
	}{
		{"theme", func() error { return config.CheckTheme(f.theme) }},
		{"block-size", func() error { return config.CheckBlockSize(f.blockSize) }},
		{"tape-size", func() error { return config.CheckTapeSize(f.tapeSize) }},
		{"budget-per-day", func() error { return config.CheckPerDay(f.perDay) }},
		{"budget-share", func() error { return config.CheckShare(f.share) }},
	}
	for _, c := range checks {
		if !o.Changed(c.flag) {
			continue
		}
		if err := c.check(); err != nil {
			return fmt.Errorf("--%s %w", c.flag, err)
		}
	}
	return nil
}

// readConfigFile reads the config file (configFile: the one named, else
// the default one if it exists) and keeps what the screen takes from it
// whole: the service, the saved scans and the watchlist. Its other keys
// are each a default that a flag may beat; the file is returned for them.
func (s *watchSettings) readConfigFile(o *WatchOptions) (config.File, error) {
	fc, path, exists, err := configFile(o.Flags.configPath, o.Changed("config"), o.Getenv)
	if err != nil {
		return fc, err
	}
	s.configExists, s.service, s.file = exists, fc.Service, fc
	s.record = fc.Record
	s.configPath, s.scans = path, scan.FromSavedAll(fc.SavedScans())
	s.watchlist, s.watchlistSkipped = fc.WatchlistSymbols(), fc.WatchlistWarnings()
	return fc, nil
}

// resolveData is what is shown: the symbol argument over the file's
// symbol, --mode over the file's mode.
func (s *watchSettings) resolveData(given givenFlags, fc *config.File) {
	switch {
	case given.symbol != "":
		s.symbol = given.symbol
	case fc.Symbol != "":
		s.symbol = fc.Symbol
	}
	switch {
	case given.mode != "":
		s.mode = given.mode
	case fc.Mode != "":
		s.mode, _ = config.ParseMode(fc.Mode) // checked by config.Load
	}
}

// resolveLooks is how the screen looks: theme, colour-blind palette,
// flashes and colour at all.
func (s *watchSettings) resolveLooks(o *WatchOptions, fc *config.File) {
	f := &o.Flags
	switch {
	case o.Changed("theme"):
		s.theme = f.theme
	case fc.Theme != "":
		s.theme = fc.Theme
	}
	flagOverFile(&s.colorBlind, o.Changed("colorblind"), f.colorBlind, fc.ColorBlind)
	switch {
	case o.Changed("no-flash"):
		s.noFlash = f.noFlash
	case fc.Flash != nil:
		s.noFlash = !*fc.Flash
	}
	// NO_COLOR (no-color.org): any non-empty value; an explicit --no-color
	// (=false included) overrides it, as the convention allows.
	if o.Changed("no-color") {
		s.noColor = f.noColor
	} else {
		s.noColor = o.Getenv("NO_COLOR") != ""
	}
}

// resolveTrades is how the trades are shown: the block size that
// highlights a trade and the trades the tape keeps.
func (s *watchSettings) resolveTrades(o *WatchOptions, fc *config.File) {
	flagOverFile(&s.blockSize, o.Changed("block-size"), o.Flags.blockSize, fc.BlockSize)
	flagOverFile(&s.tapeSize, o.Changed("tape-size"), o.Flags.tapeSize, fc.TapeSize)
}

// resolveBudget is what the screen may spend: the file's points per day
// and share, then the flags'. The two interact, so unlike the other keys
// they are not each taken flag over file.
func (s *watchSettings) resolveBudget(o *WatchOptions, fc *config.File) {
	if fc.Budget.PointsPerDay != nil {
		s.budget.PerDay = *fc.Budget.PointsPerDay
	}
	if fc.Budget.Share != nil {
		s.budget.Share = *fc.Budget.Share
	}
	if o.Changed("budget-share") {
		// A share on the command line is what the user wants this run: the
		// file's points per day, which would override it, steps aside.
		s.budget.Share = o.Flags.share
		s.budget.PerDay = 0
	}
	if o.Changed("budget-per-day") {
		s.budget.PerDay = o.Flags.perDay
	}
}

// flagOverFile sets *dst to the flag's value when the flag was given,
// else to the file's when the file sets the key; else *dst keeps its
// default. A flag left at its default never hides the file's value.
func flagOverFile[T any](dst *T, given bool, flag T, file *T) {
	switch {
	case given:
		*dst = flag
	case file != nil:
		*dst = *file
	}
}
