package config

import "time"

// Every default of chainwatch, in one place: the flags' help, the config
// file's documentation, the watch screen, the scheduler and the tests all
// read these, so a default changed here changes everywhere at once and
// nothing else defines one.

// The watch screen's settings, each a flag and a config key.
const (
	DefaultSymbol = "SPY"
	DefaultTheme  = "auto"
	// DefaultBlockSize is the size from which a print on the tape is a
	// block: 100 contracts is where desks start to call it size.
	DefaultBlockSize = 100
	// DefaultTapeSize is how many trades the tape holds; a busy SPX
	// session prints a few thousand, and the ring stays a few hundred kB.
	DefaultTapeSize = 5000
	MinTapeSize     = 100
	MaxTapeSize     = 100000
	// DefaultBudgetShare is the share of the month's points left that a
	// screen may spend: a quarter, so a screen left open all month cannot
	// drain the account and other tools keep the rest.
	DefaultBudgetShare = 0.25
	// DefaultAgentShare is the share of the day's budget (the screen's,
	// above) that one `chainwatch mcp` session may spend without
	// --max-points: an agent asks in loops, and a quarter leaves the rest
	// of the day to the screen and the other sessions.
	DefaultAgentShare = 0.25
)

// Themes are the values of --theme and the config's theme.
var Themes = []string{"auto", "dark", "light"}

// The service's plans, as far as pacing needs them.
const (
	// TrialAllowance is the trial plan's daily points (used + left): it
	// renews daily, so its balance is spread over today, not the month.
	TrialAllowance = 500
	// FallbackPointsPerHour is the pace before the first reply tells the
	// balance: it fills the screen quickly without assuming a large plan.
	FallbackPointsPerHour = 2000.0
)

// Pacing of the feeds. The minimums keep a generous budget from turning
// into a request storm against the per-second limit, and a faster redraw
// would not be readable anyway. The maximums are an hour: the budget is
// the user's word, so a small one (the trial's 500 points a day) gets long
// intervals rather than an overdraft. A quiet screen (lost focus, idle
// user) may wait up to QuietMax beyond its own interval.
const (
	ChainMinInterval = 2 * time.Second
	TapeMinInterval  = 3 * time.Second
	ChainMaxInterval = time.Hour
	TapeMaxInterval  = time.Hour
	QuietMax         = 15 * time.Minute
	CalendarInterval = 6 * time.Hour
	// QuietFactor slows polling when the terminal loses focus, and again
	// after IdleAfter without input.
	QuietFactor = 4
	IdleAfter   = 5 * time.Minute
	BackoffBase = 2 * time.Second
	BackoffMax  = 2 * time.Minute
	// FetchTimeout bounds one request with its retries: SPX's whole chain
	// over a slow link fits, a hung connection does not stall the screen.
	FetchTimeout = 20 * time.Second
	// ExpiryDebounce is how long expiry flips wait before fetching, so
	// flipping through ten tabs costs one request.
	ExpiryDebounce = 250 * time.Millisecond
	// StaleAfter is how many steady intervals may pass without a good
	// chain before the header calls the data stale.
	StaleAfter = 3
	// The vol page's term structure fetches the whole chain: at most every
	// TermMinInterval, from TermShare of the budget, at least every
	// TermMaxInterval. Its first fetch waits TermFirstDelay after the page
	// opens, so the cost it shows is read before it is spent and a quick
	// look (v, esc) costs nothing.
	TermMinInterval = 5 * time.Minute
	TermMaxInterval = time.Hour
	TermShare       = 0.2
	TermFirstDelay  = 3 * time.Second
	// FullChainMaxAge is how long the expiries and strikes learnt from a
	// whole chain are trusted; then a whole chain is fetched again, for
	// strikes listed during the day and expiries that rolled off.
	FullChainMaxAge = 30 * time.Minute
)

// The ladder and the tape.
const (
	// StrikeWindows are the strikes shown around the money (w cycles
	// them); 0 is all of them. DefaultStrikeWindow indexes it: 40
	// strikes, a screenful either side on a tall terminal.
	DefaultStrikeWindow = 2
	// FlashFor is how long a changed cell stays highlighted.
	FlashFor = 700 * time.Millisecond
	// TapePageLimit is the trades one tape request asks for.
	TapePageLimit = 10000
	// TapeWindow is how far back the first tape page reaches.
	TapeWindow = 15 * time.Minute
)

// The contract page.
const (
	// ContractPageLimit is the trades with greeks one request asks for: a
	// busy contract's whole day in one page, a bounded answer all the same.
	ContractPageLimit = 10000
	// TAQPageLimit is the NBBO changes one request asks for (the most the
	// endpoint serves).
	TAQPageLimit = 10000
	// ContractMinInterval is the fastest the page's trades and quotes are
	// polled, however large the budget; the header's snapshot is paced as
	// the chain (ChainMinInterval).
	ContractMinInterval = 3 * time.Second
	ContractMaxInterval = time.Hour
	// ContractMaxCatchUp is how many full pages are fetched back to back
	// before the budget paces the page again.
	ContractMaxCatchUp = 8
	// TapeGreeksMaxContracts is how many of the tape's visible contracts
	// get their trades' greeks fetched, one request each: the rows a
	// trader reads, not the whole ring.
	TapeGreeksMaxContracts = 12
	// TapeQuoteIVWindow is how far in time a print may be from its
	// contract's quote in the ladder's last answer for the quote's IV to
	// stand for the print's ("~22") until its own is fetched: the ladder
	// is refreshed every few seconds, and an ATM vol moves a fraction of
	// a point in a few minutes; an older print waits for its own.
	TapeQuoteIVWindow = 5 * time.Minute
	// SweepWindow is how close in time the prints of one sweep are: an
	// intermarket sweep order's pieces are routed at once and print on
	// their exchanges within a few milliseconds; prints further apart are
	// separate orders however alike (tas.InSweep holds the whole rule).
	SweepWindow = 5 * time.Millisecond
)

// StrikeWindows are the ladder's window sizes; see DefaultStrikeWindow.
var StrikeWindows = [...]int{10, 20, 40, 0}

// MaxRecent is how many recent symbols are kept for the prompt's completion.
const MaxRecent = 20

// The watchlist page.
const (
	// MaxWatchlist bounds the watchlist: every symbol is in the one
	// underlying-quotes request of each refresh, and a hundred rows are
	// already several screens.
	MaxWatchlist = 100
	// WatchlistMinInterval and WatchlistMaxInterval bound the watchlist's
	// refresh as the chain's are bounded: the budget decides in between.
	WatchlistMinInterval = 2 * time.Second
	WatchlistMaxInterval = time.Hour
	// SparkPoints is how many prices of this session a row's sparkline
	// keeps.
	SparkPoints = 120
)

// DefaultWatchlist is the watchlist of a config file without one: the
// index products and the names most traded in options.
var DefaultWatchlist = []string{"SPY", "QQQ", "IWM", "SPX", "VIX", "AAPL", "MSFT", "NVDA", "AMZN", "TSLA"}

// Alert rules (the alert package, `chainwatch alerts`).
const (
	// AlertEvery is how often the data a rule needs and nothing on screen
	// fetches is fetched for it: a price a few seconds late is an alert
	// in time, and 4 points every 30 s is 480 an hour.
	AlertEvery = 30 * time.Second
	// AlertScanEvery is how often a scan rule runs its scan: a scan's
	// results change over minutes and a run costs 30 points live.
	AlertScanEvery = 5 * time.Minute
	// AlertExecTimeout bounds a rule's command (--exec): it is killed
	// then, and the screen says so. MaxAlertExecTimeout is the longest
	// the config file may ask for.
	AlertExecTimeout    = 10 * time.Second
	MaxAlertExecTimeout = 10 * time.Minute
	// AlertExecParallel commands run at once; AlertExecQueue more wait.
	// Beyond them an event is logged but its command not run, and said.
	AlertExecParallel = 4
	AlertExecQueue    = 64
	// AlertLogMax bounds the fired-event log (lines): past it the file is
	// rewritten with its newest half, each rule's last state kept.
	AlertLogMax = 10000
	// MaxAlerts bounds the rules of a file and a session.
	MaxAlerts = 2000
	// AlertNoticeEvery is the shortest time between two notices, bells or
	// desktop notifications: a flood of events is one notice with a count.
	AlertNoticeEvery = time.Second
	// AlertLogFile is the fired-event log in the state directory.
	AlertLogFile = "alerts.jsonl"
)
