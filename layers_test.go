package main

// The layering of the module as one table: each row is some folders, the
// job that lives there and what they may import. layout_test.go holds
// every package to its row (TestLayersHoldEveryImport) and
// docs/architecture.md's Layout section is made from it
// (TestArchitectureLayoutIsTheTable; `go test -run
// TestArchitectureLayoutIsTheTable -update-docs .` writes it again).

// layer is one row of the layout.
type layer struct {
	// pkgs are the row's packages, as paths in the module ("." is the
	// root); "x/..." is x and every package below it.
	pkgs []string
	// folder and what are the row's first two columns in the docs.
	folder, what string
	// imports are the module's packages the row may import, as patterns
	// like pkgs; "..." is any. A test file's imports are not held.
	imports []string
	// others says what the row may import outside the module, for the docs.
	others string
	// noCharm: no charm module (bubbletea, bubbles, lipgloss, huh,
	// bubble-table), through any dependency.
	noCharm bool
	// module: a module of its own (third_party), outside ./...
	module bool
}

// below is every package of the client under cmd/: what cmd may import.
var below = []string{"..."}

// modelParts may be imported by a part of the TUI.
var modelParts = []string{"model/common", "ui", "feed", "scan", "config", "keymap", "theme", "api", "market",
	"alert", "strategy", "pricing", "tas", "vol", "positioning"}

var layers = []layer{
	{pkgs: []string{"."}, folder: "`main.go`", what: "builds the process's dependencies, runs `cmd.Execute`, sets the exit code",
		imports: []string{"cmd"}},
	{pkgs: []string{"cmd"}, folder: "`cmd/`",
		what:    "the command line (cobra), one file per command in the gh style (`XOptions`, `NewCmdX(deps, runF)`, `xRun(opts)`): the root command is the watch screen (`root.go`, `root_watch.go`), then `login`/`logout`, `status`, `sandbox`, `serve`, and the headless `scan`, `chain`, `calendar`, `vol`, `gex`, `quotes`, `trades`, `taq`, `alerts`, `strategy`, `positions`, `history`; `mcp` (`mcp*.go`: those commands as an agent's MCP tools, within a cap kept in serve's ledger); which service and credentials (`session.go`); **the one runner** of every headless command (`headless.go`: config, data path, `--cost` from `cost.go`, `--watch` in `watch.go`, exit statuses from `exit.go`) and **the one writer of rows** (`export.go`: table, `--json[=fields]`, `--csv`; `export_script.go`: `--jq` with gojq, `--template`; `export_jq.go`: each `--jq` run in a process of its own, bounded in memory and time; `refuse.go`: a refused value echoed at most 60 characters); symbol completion (`completion.go`)",
		imports: below, others: "cobra, gojq, bubbletea, the MCP Go SDK"},
	{pkgs: []string{"docgen"}, folder: "`docgen/`",
		what:    "writes what the documentation takes from the program itself (`go generate ./docgen`): `docs/reference/`, a Markdown and a man page per command from the cobra tree (cobra/doc); `docs/watch-screen.svg`, the watch screen's golden frame drawn with its colours; and the watch page's key table from the key map; its tests fail when any is stale and hold README.md and `docs/` to their rules (links resolve, the packages named, the performance table's commits, few measured figures in comments)",
		imports: []string{"cmd", "keymap"}, others: "cobra/doc, x/vt, ultraviolet, bubbles"},
	{pkgs: []string{"config", "config/configtest"}, folder: "`config/`",
		what:    "**every default** (`defaults.go`: symbol, sizes, budget share, pacing intervals, strike windows, plan allowances); the config file (`file.go`: loading, errors naming file, key and line; XDG paths), saved scans (`scans*.go`: read, edit keeping comments) and the watchlist (`watchlist*.go`: bad entries skipped with their lines, saved keeping comments), state (`state.go`: recent symbols, first run)",
		imports: []string{"api", "market", "text"}, others: "TOML", noCharm: true},
	{pkgs: []string{"market"}, folder: "`market/`",
		what:    "the exchange's calendar and sessions, for the client and the sandbox alike: the NYSE's trading days, holidays and 13:00 early closes (`calendar.go`), an option's expiry time (`expiry.go`), the regular session, what a mode's data shows at an instant, the next open and the trading hours left (`session.go`)",
		imports: []string{"api"}, others: "the holiday rules (rickar/cal)", noCharm: true},
	{pkgs: []string{"market/caltest"}, folder: "`market/caltest/`",
		what:    "the NYSE's published session history as a fixture, which the client's calendar and the sandbox's listings are checked against day by day",
		imports: []string{"api", "market"}, others: "tests only", noCharm: true},
	{pkgs: []string{"api"}, folder: "`api/`",
		what:    "the client of the service: types, endpoints, validation, OSI, points, typed errors and **the one wording** of them (`describe.go`: `api.Describe`, which the feed, the scan and the commands share), auth and the lock files; `api.Span`, what a request for some legs is narrowed to; `api.History`, the store of past days it asks before sending a past day's request (`history.go`)",
		imports: []string{"text"}, others: "oauth2, expr", noCharm: true},
	{pkgs: []string{"feed"}, folder: "`feed/`",
		what:    "the data feed: `Query` with its generation, the fetches (`feed.Source`), the point budget, **the scheduler** (`scheduler.go`) and **the monitor** (`monitor*.go`): it owns the timers, generations, requests in flight, the budget and the one booking of a reply, fetches each feed its subscribers want once however many want it, and posts each reply (a `feed.Reply`) to every subscriber's mailbox stamped with that subscriber's query; `--watch` runs on it as a `feed.Job`; it knows no page",
		imports: []string{"api", "config", "market", "past"}, others: "", noCharm: true},
	{pkgs: []string{"feed/feedtest"}, folder: "`feed/feedtest/`",
		what:    "drives a `feed.Monitor` in tests: a clock the test advances (its timers fire as it passes them) and a source whose requests wait for the test's answer; model's tests answer the screen's requests through it",
		imports: []string{"feed", "api"}, others: "tests only", noCharm: true},
	{pkgs: []string{"past"}, folder: "`past/`",
		what:    "what the store of past days says of a symbol, as plain data: its figures against its stored year and its earnings moves; vol computes them, the store hands them over (`history.Store.Figures`, `RealizedMoves`) and the feed carries them without importing the figures",
		imports: []string{"api"}, noCharm: true},
	{pkgs: []string{"pricing"}, folder: "`pricing/`",
		what:    "one pricing for the client and the sandbox: Black-Scholes-Merton and Bjerksund-Stensland 2002 with a rate and a dividend yield, implied volatility, the greeks with vanna and charm, the chain's carry (the rate and dividend its quotes imply), and the contract multiplier",
		imports: []string{"market"}, noCharm: true},
	{pkgs: []string{"tas"}, folder: "`tas/`",
		what:    "one contract's time and sales as figures: trades in one shape, the side by the conventions' rule, **the summary** (volume at bid/mid/ask, premium, largest, blocks, sweeps), the theo, the incremental trade and NBBO series; shared by the contract page and `chainwatch trades`",
		imports: []string{"api", "config", "pricing"}, others: "", noCharm: true},
	{pkgs: []string{"vol"}, folder: "`vol/`",
		what:    "the volatility figures: ATM IV and the straddle's expected move, 25-delta risk reversal and butterfly, put/call ratios, the smile and the term structure; IV rank and percentile, HV, the earnings moves (`history.go`, `earnings.go`); shared by the vol page, the expiry strip, the header, the watchlist, `chainwatch vol` and `quotes`",
		imports: []string{"api", "market", "past"}, noCharm: true},
	{pkgs: []string{"positioning"}, folder: "`positioning/`",
		what:    "the positioning figures: a chain in a compact shape, ranges of expiries, open interest, volume and GEX by strike, max pain per expiry, the walls, P/C OI, vanna and charm, the zero-gamma level and the GEX profile on the chain's own model; shared by the positioning page and `chainwatch gex`",
		imports: []string{"api", "market", "pricing"}, noCharm: true},
	{pkgs: []string{"strategy"}, folder: "`strategy/`",
		what:    "strategies and positions as figures: the leg syntax and templates, a strategy's name, its legs marked from a chain, the risk graph's curves, P&L, breakevens and probability of profit, the positions file's rows, the span of strikes and expiries its legs are fetched with (`api.Span`)",
		imports: []string{"api", "config", "market", "pricing", "scan", "text"}, noCharm: true},
	{pkgs: []string{"scan"}, folder: "`scan/`",
		what:    "a scan: definition, presets, **running it** (`scan.Run`), its outcome as a table, error descriptions",
		imports: []string{"api", "config", "text"}, noCharm: true},
	{pkgs: []string{"alert"}, folder: "`alert/`",
		what:    "alert rules: a rule and its words, **the engine** that evaluates them on the monitor's settled replies (`feed.Monitor.Observe`, cancelled when a pool closes) with once-per-crossing hysteresis, the feed it adds for data nothing on screen fetches and its cost (one job per monitor, which a **pool** of engines shares: a served desk's traders' rules fetch each need once), the fired-event log, the events' commands, the OSC 9 / 777 notification sequences; shared by the alerts page and `chainwatch alerts`",
		imports: []string{"api", "config", "feed", "market", "pricing", "scan", "tas", "text"}, noCharm: true},
	{pkgs: []string{"history"}, folder: "`history/`",
		what:    "the store of past days (SQLite, modernc.org/sqlite): schema and migrations, the per-symbol quotes and the other past answers, the figures' inputs (`Stats`) and the figures the feed's replies carry (`figures.go`), backfill plans and the lock between backfills, prune, move-aside",
		imports: []string{"api", "market", "past", "vol"}, others: "SQLite", noCharm: true},
	{pkgs: []string{"record"}, folder: "`record/`",
		what:    "the flight recorder: every answer the client receives (its request, body, the service's time, its cost), kept by day in segments of zstd-compressed frames, a body identical to one kept stored once, one segment per process; a size cap removes the oldest days; `Day.At` is a source that answers the api client (`api.WithReplay`) as at any recorded moment; `List`, `Prune`, `Export` (a day as Hive-partitioned Parquet); a damaged or cut-off segment is reported and skipped",
		imports: []string{"api"}, others: "klauspost/compress (zstd), xxhash, parquet-go", noCharm: true},
	{pkgs: []string{"text"}, folder: "`text/`",
		what:   "the one cleaner of outside text: `Clean` (control characters, escape sequences whole), `OneLine`",
		others: "standard library", noCharm: true},
	{pkgs: []string{"crash"}, folder: "`crash/`",
		what:    "a bug never takes the terminal: `Guard` wraps the screen's root model (the watch screen's and every served session's), recovers a panic in its `Init`, `Update`, `View` or commands, quits the program the ordinary way and keeps the panic with the last 32 messages' types and the size; `Relay` recovers the monitor's goroutines; `Write` makes the report (`cmd/root_crash.go` and `serve/panic.go` use them)",
		imports: []string{"text"}, others: "bubbletea"},
	{pkgs: []string{"serve"}, folder: "`serve/`",
		what:    "`chainwatch serve`: the watch screen over SSH (wish), one session per trader, their keys from an authorized_keys file, one data monitor behind them all, the sessions' ledger and limits; it knows nothing of the screen itself: cmd hands it a session's model and a runner for exec requests",
		imports: []string{"api", "config", "crash", "scan", "text"}, others: "wish, ssh, bubbletea"},
	{pkgs: []string{"serve/bus"}, folder: "`serve/bus/`",
		what:    "serve hosts on one subscription over NATS: the embedded bus (nats-server with JetStream), the source that publishes every answer its client receives (a second `api.Recorder`) and fetches the hosts' wants on its monitor, the host that mirrors the answers and answers its client from them (`api.Replay`), the users file, credentials and TLS",
		imports: []string{"api", "feed"}, others: "nats-server, nats.go, klauspost/compress", noCharm: true},
	{pkgs: []string{"serve/bus/bustest"}, folder: "`serve/bus/bustest/`",
		what:   "test helper: a separate nats-server on 127.0.0.1 with JetStream, as a desk runs one",
		others: "nats.go; tests only", noCharm: true},
	{pkgs: []string{"model"}, folder: "`model/`",
		what:    "the TUI's root `App` (under 600 lines): a stack of pages (never one twice) and one overlay slot; routes keys to the overlay or the top page and the monitor's replies to every page, carries out their Actions, works out from the stack what is shown (each page says whether it covers the pages under it) and tells the monitor what the pages want, hidden where not shown, draws the status bar",
		imports: []string{"model/...", "api", "config", "feed", "theme", "ui"}, others: "bubbletea, bubbles"},
	{pkgs: []string{"model/link", "model/frameclock", "model/symbols"}, folder: "`model/link/`, `model/frameclock/`, `model/symbols/`",
		what:    "the root's helpers: a screen's subscription to `feed.Monitor` (listening as a `tea.Cmd`, the snapshot); the tick armed for the next moment the screen's text can change; the session's recent and unknown symbols",
		imports: []string{"feed", "config", "model/common"}, others: "bubbletea"},
	{pkgs: []string{"model/common"}, folder: "`model/common/`",
		what:    "`Common` (styles, keys, client, clock) handed to every part, and the `Config` it is built from; the `Pane` / `Page` / `Overlay` contracts, the `Action`s pages and overlays return and the messages the root sends every page (`QueryMsg`, `DrawMsg`)",
		imports: []string{"alert", "api", "config", "feed", "keymap", "market", "scan", "strategy", "theme", "ui"}, others: "bubbletea, bubbles"},
	{pkgs: []string{"model/watch/...", "model/watchlist", "model/contract", "model/positioning", "model/positions", "model/strategy", "model/alerts", "model/prompt", "model/scanner", "model/help"},
		folder:  "`model/watch/` (with its panes `chain/`, `tape/`, `calendar/`, `vol/`), `model/watchlist/`, `model/contract/`, `model/positioning/`, `model/positions/`, `model/strategy/`, `model/alerts/` (the alerts page and the alert dialog it builds for the root), `model/prompt/`, `model/scanner/`, `model/help/`",
		what:    "one part each: the pages (the watch screen and the vol page, which shares its state; the watchlist; the contract; the positioning page; the positions and the strategy pages) and the overlays (the prompts, the scanner, the help) behind the contract; parts never import each other, a page imports only its own panes (`model/layout_test.go`)",
		imports: append([]string{"model/watch/..."}, modelParts...), others: "bubbletea, bubbles, huh, bubble-table"},
	{pkgs: []string{"model/modeltest"}, folder: "`model/modeltest/`",
		what:    "test helpers: the in-process sandbox on a stopped clock, synthetic chains and trades, the sandbox's requests counted",
		imports: []string{"api", "config", "keymap", "model/common", "sandbox", "theme"}, others: "tests only"},
	{pkgs: []string{"ui"}, folder: "`ui/`",
		what:    "pure drawing from plain data: **the ladder** (`ladder.go`), tabs, header, details, tape, calendar, status, the scanner's box, bodies and results table (`scanner*.go`), the watchlist page (`watchlist*.go`), the vol page (`vol*.go`, its charts drawn with ntcharts in `chart.go`), the positioning page (`positioning*.go`), the expiry strip (`tabs.go`), the contract page (`contract*.go`, its chart in `contract_chart.go`), the strategy page (`strategy*.go`), help, layout; `text.go` fits or cuts a styled line to a width (`Fit`, `Cut`)",
		imports: []string{"api", "positioning", "pricing", "strategy", "tas", "text", "theme", "vol"}, others: "lipgloss, ntcharts; no `model/`, `keymap/` or messages"},
	{pkgs: []string{"theme"}, folder: "`theme/`", what: "colour roles (dark, light, colour-blind) and the styles built from them",
		others: "lipgloss"},
	{pkgs: []string{"keymap"}, folder: "`keymap/`", what: "every key binding and its help", others: "bubbles"},
	{pkgs: []string{"sandbox"}, folder: "`sandbox/`",
		what:    "the local deployment of the service: token service, data endpoints (`data_*.go`); it never imports the client beyond `api/` wire types and the shared calendar",
		imports: []string{"api", "market", "sandbox/..."}, others: "go-jose, zitadel/oidc", noCharm: true},
	{pkgs: []string{"sandbox/market", "sandbox/sim", "sandbox/wire", "sandbox/scan", "sandbox/quota", "sandbox/faults", "sandbox/par"},
		folder:  "`sandbox/market/`, `sim/`, `wire/`, `scan/`, `quota/`, `faults/`, `par/`",
		what:    "listings on `market/`'s calendar; the market in motion and its volatility surface, priced by `pricing/`; JSON and XML; the scanner's formulas; points; fault injection; work spread over every core",
		imports: []string{"api", "market", "pricing", "sandbox/market", "sandbox/par", "sandbox/scan"}, others: "expr, x/time", noCharm: true},
	{pkgs: []string{"third_party/bubbletea"}, folder: "`third_party/bubbletea/`",
		what:   "bubbletea v2.1.1 with two patches: the render loop ticks only while frames come, and a changed frame redraws only its changed lines; upstream's package tests run against them (`go.mod` replaces the module with it; `CHAINWATCH.md` there)",
		others: "its own module's dependencies", module: true},
	{pkgs: []string{"third_party/ultraviolet"}, folder: "`third_party/ultraviolet/`",
		what:   "ultraviolet v0.0.0-20261008173134-6b8d4baf91b4 (bubbletea's cell renderer) with five patches: a changed line jumps over its unchanged cells; on the alternate screen the style is kept across lines, every cursor move takes its cheapest form and the scroll optimisation hashes only the lines a frame touched; a pen, a colour or a glyph's width is not worked out again (`go.mod` replaces the module with it; `CHAINWATCH.md` there)",
		others: "its own module's dependencies", module: true},
	{pkgs: []string{"third_party/ssh"}, folder: "`third_party/ssh/`",
		what:   "charm.land/ssh (the SSH server under wish) with one patch: a window change as a session starts no longer races the handler's read of the pty (`go.mod` replaces the module with it; `CHAINWATCH.md` there)",
		others: "its own module's dependencies", module: true},
}
