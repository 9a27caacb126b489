package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/config/configtest"
	"chainwatch/model"
	"chainwatch/sandbox"
)

// testNow is a Friday afternoon in New York: 2026-11-18 is two days back.
var testNow = time.Date(2026, 11, 20, 14, 0, 0, 0, api.Eastern)

// homeEnv is an environment with its own empty home, config and state
// directories, so a test never reads the developer's files.
func homeEnv(t *testing.T) map[string]string {
	t.Helper()
	root := t.TempDir()
	return map[string]string{
		"HOME":            filepath.Join(root, "home"),
		"XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_STATE_HOME":  filepath.Join(root, "state"),
		"XDG_DATA_HOME":   filepath.Join(root, "data"),
	}
}

// watchCLI runs the root command with a runWatch that records what the
// screen would get and then calls during (while the session is open).
type watchCLI struct {
	env    map[string]string
	during func(cfg model.Config) error
}

type watchResult struct {
	cfg         *model.Config // nil: the screen was not started
	out, errOut string
	err         error
}

func (w watchCLI) run(t *testing.T, args ...string) watchResult {
	t.Helper()
	var res watchResult
	out, errOut := &syncBuffer{}, &syncBuffer{}
	deps := cli{env: w.env}.deps(out, errOut)
	deps.now = func() time.Time { return testNow }
	deps.runWatch = func(cfg model.Config) error {
		res.cfg = &cfg
		if w.during != nil {
			return w.during(cfg)
		}
		return nil
	}
	cmd := NewCmdRoot(deps, nil)
	cmd.SetArgs(args)
	res.err = cmd.ExecuteContext(t.Context())
	res.out, res.errOut = out.String(), errOut.String()
	return res
}

// TestWatchDefaults: a new user's bare `chainwatch` is SPY, live, on the
// embedded sandbox, with the welcome banner, and its client works.
func TestWatchDefaults(t *testing.T) {
	env := homeEnv(t)
	var chain *api.SymbolWithOptions
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		var err error
		chain, _, err = cfg.Client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPY", Date: cfg.Client.Today().String()})
		return err
	}}.run(t)
	if res.err != nil || res.cfg == nil {
		t.Fatalf("err %v, stderr %q", res.err, res.errOut)
	}
	c := res.cfg
	if c.Symbol != "SPY" || c.Source != "SANDBOX" || c.Mode != api.Live || c.Date != 0 || !c.FirstRun ||
		c.Theme != "auto" || c.ColorBlind || c.NoColor || c.NoFlash || c.BlockSize != 100 || c.TapeCapacity != 5000 ||
		c.Budget.PerDay != 0 || c.Budget.Share != 0.25 || len(c.Recent) != 0 || c.SaveRecent == nil ||
		!strings.HasPrefix(c.BaseURL, "http://127.0.0.1:") || c.Client == nil {
		t.Fatalf("config %+v", *c)
	}
	if chain == nil || chain.Symbol != "SPY" || len(chain.Options) == 0 {
		t.Fatalf("the client got no SPY chain from the sandbox: %+v", chain)
	}
	if res.out != "" || res.errOut != "" {
		t.Fatalf("printed %q %q", res.out, res.errOut)
	}
	// The banner is shown once: the marker is there now.
	if _, err := os.Stat(filepath.Join(env["XDG_STATE_HOME"], "chainwatch", config.FirstRunMarker)); err != nil {
		t.Fatal(err)
	}
	if again := (watchCLI{env: env}).run(t); again.err != nil || again.cfg.FirstRun {
		t.Fatalf("second run: %v, first run %v", again.err, again.cfg != nil && again.cfg.FirstRun)
	}
	// The sandbox stopped with the screen.
	if _, _, err := c.Client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPY", Date: c.Client.Today().String()}); err == nil {
		t.Fatal("the embedded sandbox still answers after the screen ended")
	}
}

func TestWatchSymbolModeDate(t *testing.T) {
	var mode api.Mode
	res := watchCLI{env: homeEnv(t), during: func(cfg model.Config) error { mode = cfg.Client.Mode(); return nil }}.
		run(t, "qqq", "--mode", "delayed", "--date", "2026-11-18")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if c := res.cfg; c.Symbol != "QQQ" || c.Mode != api.Delayed || c.Date != api.NewDate(2026, 11, 18) || mode != api.Delayed {
		t.Fatalf("config %s %s %s, client mode %s", c.Symbol, c.Mode, c.Date, mode)
	}
	// Today is the live session, not a historical day.
	res = watchCLI{env: homeEnv(t)}.run(t, "--date", "2026-11-20", "BRK.B")
	if res.err != nil || res.cfg.Date != 0 || res.cfg.Symbol != "BRK.B" {
		t.Fatalf("today: %v %+v", res.err, res.cfg)
	}
}

// TestWatchFlagErrors: every bad flag or symbol is one clear line, and
// nothing starts.
func TestWatchFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--mode", "fast"}, `--mode "fast": want live or delayed`},
		{[]string{"--date", "2026-11-21"}, "--date: 2026-11-21 is in the future (today is 2026-11-20, Eastern)"},
		{[]string{"--date", "2026-11-15"}, "--date: 2026-11-15 is a Sunday, not a trading day; try Fri 2026-11-13"},
		{[]string{"--date", "2025-12-25"}, "--date: 2025-12-25 is Christmas Day, not a trading day; try Wed 2025-12-24"},
		{[]string{"--date", "2026-02-30"}, `--date: "2026-02-30" is not a date; use yyyy-mm-dd`},
		{[]string{"--date", "11/18/2026"}, `--date: "11/18/2026" is not a date`},
		{[]string{"SPY X"}, `symbol "SPY X": a blank is not part of a symbol`},
		{[]string{"ABCDEFGHIJK"}, `symbol "ABCDEFGHIJK": 11 characters; a symbol has at most 10`},
		{[]string{"..."}, `symbol "...": '.' must sit between letters or digits`},
		{[]string{"../../etc"}, `symbol "../../etc": '.' must sit between letters or digits`},
		{[]string{"ÄPFEL€"}, `symbol "ÄPFEL€": "Ä" cannot be in a symbol`},
		{[]string{"SPY", "QQQ"}, "at most one symbol, not 2 arguments"},
		{[]string{"--theme", "blue"}, `--theme "blue": want auto, dark or light`},
		{[]string{"--budget-per-day", "-1"}, "--budget-per-day -1: want points per trading day >= 0"},
		{[]string{"--budget-share", "0"}, "--budget-share 0: want a share"},
		{[]string{"--budget-share", "1.01"}, "--budget-share 1.01"},
		{[]string{"--budget-share", "NaN"}, "--budget-share NaN"},
		{[]string{"--block-size", "0"}, "--block-size 0: want a trade size of at least 1"},
		{[]string{"--tape-size", "99"}, "--tape-size 99: want 100 to 100000"},
		{[]string{"--tape-size", "100001"}, "--tape-size 100001"},
		{[]string{"--config", ""}, "--config needs a path"},
		{[]string{"--config", "/nonexistent/chainwatch.toml"}, "--config /nonexistent/chainwatch.toml: no such file"},
	} {
		res := watchCLI{env: homeEnv(t)}.run(t, tc.args...)
		if res.err == nil || !strings.Contains(res.err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, res.err, tc.want)
		}
		if res.cfg != nil {
			t.Errorf("%q started the screen", tc.args)
		}
		if !strings.Contains(res.errOut, "Error: ") {
			t.Errorf("%q: stderr %q", tc.args, res.errOut)
		}
	}
}

// TestWatchUnknownSandboxSymbol: the sandbox's market is known, so a word
// it does not list is reported as a command or symbol that does not
// exist, with cobra's suggestion for a mistyped command.
func TestWatchUnknownSandboxSymbol(t *testing.T) {
	res := watchCLI{env: homeEnv(t)}.run(t, "stauts")
	if res.err == nil || res.cfg != nil || !strings.Contains(res.errOut, `unknown command or symbol "stauts"`) ||
		!strings.Contains(res.errOut, "the embedded sandbox has no symbol STAUTS") || !strings.Contains(res.errOut, "Did you mean this?\n\tstatus") {
		t.Fatalf("err %v, stderr %q", res.err, res.errOut)
	}
}

func TestWatchConfigFile(t *testing.T) {
	env := homeEnv(t)
	configtest.Write(t, filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch"), `
symbol = "aapl"
mode = "delayed"
theme = "light"
colorblind = true
flash = false
block_size = 50
tape_size = 200
[budget]
points_per_day = 1000
share = 0.5
`, 0o644)
	res := watchCLI{env: env}.run(t)
	c := res.cfg
	if res.err != nil || c.Symbol != "AAPL" || c.Mode != api.Delayed || c.Theme != "light" || !c.ColorBlind || !c.NoFlash ||
		c.BlockSize != 50 || c.TapeCapacity != 200 || c.Budget.PerDay != 1000 || c.Budget.Share != 0.5 || c.FirstRun {
		t.Fatalf("%v %+v", res.err, c)
	}
	// Flags beat the file, each on its own; a share on the command line
	// sets the file's points per day aside.
	res = watchCLI{env: env}.run(t, "msft", "--mode", "live", "--theme", "dark", "--colorblind=false",
		"--no-flash=false", "--block-size", "10", "--tape-size", "100000", "--budget-share", "0.1")
	c = res.cfg
	if res.err != nil || c.Symbol != "MSFT" || c.Mode != api.Live || c.Theme != "dark" || c.ColorBlind || c.NoFlash ||
		c.BlockSize != 10 || c.TapeCapacity != 100000 || c.Budget.PerDay != 0 || c.Budget.Share != 0.1 {
		t.Fatalf("%v %+v", res.err, c)
	}
	res = watchCLI{env: env}.run(t, "--budget-per-day", "300")
	if res.err != nil || res.cfg.Budget.PerDay != 300 || res.cfg.Budget.Share != 0.5 {
		t.Fatalf("%v %+v", res.err, res.cfg.Budget)
	}
	// --config names another file, which replaces the default one.
	other := configtest.Write(t, t.TempDir(), "symbol = \"IWM\"\n", 0o600)
	res = watchCLI{env: env}.run(t, "--config", other)
	if res.err != nil || res.cfg.Symbol != "IWM" || res.cfg.Mode != api.Live || res.cfg.FirstRun {
		t.Fatalf("%v %+v", res.err, res.cfg)
	}
	// A broken default file stops the start with its error.
	configtest.Write(t, filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch"), "tape_size = 5\n", 0o644)
	res = watchCLI{env: env}.run(t)
	if res.err == nil || !strings.Contains(res.err.Error(), "config.toml: tape_size: 5") || res.cfg != nil {
		t.Fatalf("%v", res.err)
	}
}

func TestWatchNoColor(t *testing.T) {
	for _, tc := range []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, false},
		{"1", nil, true},
		{"", []string{"--no-color"}, true},
		{"1", []string{"--no-color=false"}, false},
	} {
		env := homeEnv(t)
		env["NO_COLOR"] = tc.env
		res := watchCLI{env: env}.run(t, tc.args...)
		if res.err != nil || res.cfg.NoColor != tc.want {
			t.Errorf("NO_COLOR=%q %q: %v, NoColor %v", tc.env, tc.args, res.err, res.cfg != nil && res.cfg.NoColor)
		}
	}
}

// TestWatchProduction: with credentials the screen is on that service,
// which is "PRODUCTION" whatever it is; flags beat the environment.
func TestWatchProduction(t *testing.T) {
	s := startSandboxAt(t, testNow)
	env := homeEnv(t)
	env[envAuthURL], env[envBaseURL], env[envClientID], env[envClientSecret] = s.AuthURL, "http://127.0.0.1:1", sandbox.DemoClientID, s.DemoSecret
	var got int
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		chain, _, err := cfg.Client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "QQQ", Date: cfg.Client.Today().String()})
		if err == nil {
			got = len(chain.Options)
		}
		return err
	}}.run(t, "QQQ", "--base-url", s.BaseURL)
	if res.err != nil || res.cfg.Source != "LOCAL" || res.cfg.BaseURL != s.BaseURL || got == 0 {
		t.Fatalf("%v %+v, %d options", res.err, res.cfg, got)
	}
	if strings.Contains(res.out+res.errOut, s.DemoSecret) {
		t.Fatal("printed the secret")
	}
	// A symbol the sandbox does not list is fine on a service: only the
	// embedded sandbox's market is known in advance.
	if res := (watchCLI{env: env}).run(t, "ZZZZ", "--base-url", s.BaseURL); res.err != nil || res.cfg.Symbol != "ZZZZ" {
		t.Fatalf("%v", res.err)
	}
}

// TestWatchConfigCredentials: the config file alone connects, and its
// secret is refused from a file others can read, and never printed.
func TestWatchConfigCredentials(t *testing.T) {
	s := startSandboxAt(t, testNow)
	env := homeEnv(t)
	dir := filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch")
	path := configtest.Write(t, dir, fmt.Sprintf("[service]\nbase_url = %q\nauth_url = %q\nclient_id = %q\nclient_secret = %q\n",
		s.BaseURL, s.AuthURL, sandbox.DemoClientID, s.DemoSecret), 0o600)
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		_, _, err := cfg.Client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPY", Date: cfg.Client.Today().String()})
		return err
	}}.run(t)
	if res.err != nil || res.cfg.Source != "LOCAL" || res.cfg.BaseURL != s.BaseURL || res.cfg.FirstRun {
		t.Fatalf("%v %+v", res.err, res.cfg)
	}
	os.Chmod(path, 0o644)
	res = watchCLI{env: env}.run(t)
	if res.err == nil || !strings.Contains(res.err.Error(), "chmod 600 "+path) || res.cfg != nil {
		t.Fatalf("%v", res.err)
	}
	if strings.Contains(res.out+res.errOut+res.err.Error(), s.DemoSecret) {
		t.Fatal("printed the secret")
	}
}

func TestWatchRecent(t *testing.T) {
	env := homeEnv(t)
	stateDir := filepath.Join(env["XDG_STATE_HOME"], "chainwatch")
	os.MkdirAll(stateDir, 0o700)
	os.WriteFile(filepath.Join(stateDir, config.RecentFile), []byte("IWM\nqqq\n"), 0o600)
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		return cfg.SaveRecent([]string{"AAPL", "IWM", "QQQ"})
	}}.run(t)
	if res.err != nil || !slices.Equal(res.cfg.Recent, []string{"IWM", "QQQ"}) {
		t.Fatalf("%v %v", res.err, res.cfg.Recent)
	}
	data, _ := os.ReadFile(filepath.Join(stateDir, config.RecentFile))
	if string(data) != "AAPL\nIWM\nQQQ\n" {
		t.Fatalf("saved %q", data)
	}
	if res := (watchCLI{env: env}).run(t); !slices.Equal(res.cfg.Recent, []string{"AAPL", "IWM", "QQQ"}) {
		t.Fatalf("next run %v", res.cfg.Recent)
	}
}

// TestWatchStateFailureIsNotFatal: an unusable state directory still shows
// the screen, and says so on stderr only after it ended.
func TestWatchStateFailureIsNotFatal(t *testing.T) {
	env := homeEnv(t)
	file := filepath.Join(t.TempDir(), "not-a-dir")
	os.WriteFile(file, nil, 0o600)
	env["XDG_STATE_HOME"] = file
	var saveErr error
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		saveErr = cfg.SaveRecent([]string{"SPY"})
		return nil
	}}.run(t)
	if res.err != nil || res.cfg == nil || !res.cfg.FirstRun {
		t.Fatalf("%v %+v", res.err, res.cfg)
	}
	if saveErr == nil {
		t.Fatal("SaveRecent did not report the failure to the screen")
	}
	if !strings.Contains(res.errOut, "warning: cannot save the recent symbols") ||
		!strings.Contains(res.errOut, "warning: cannot record the first run") {
		t.Fatalf("stderr %q", res.errOut)
	}
}

func TestWatchScreenError(t *testing.T) {
	res := watchCLI{env: homeEnv(t), during: func(model.Config) error { return errors.New("could not open a TTY") }}.run(t)
	if res.err == nil || !strings.Contains(res.errOut, "Error: the watch screen stopped: could not open a TTY") {
		t.Fatalf("%v %q", res.err, res.errOut)
	}
}

// TestWatchHelpListsFlags keeps the flags documented where users look.
func TestWatchHelpListsFlags(t *testing.T) {
	out, _, err := runCLI(t, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"chainwatch [SYMBOL]", "--mode", "--date", "--config", "--budget-per-day", "--budget-share",
		"--block-size", "--tape-size", "--theme", "--colorblind", "--no-color", "--no-flash", "--base-url", "--auth-url", "--client-id", "--token-file",
		"--watchlist", "login", "status", "sandbox", "quotes"} {
		if !strings.Contains(out, f) {
			t.Errorf("--help does not mention %s", f)
		}
	}
	readme, _ := os.ReadFile("../docs/configuration.md")
	for _, f := range []string{"--mode", "--date", "--config", "--budget-per-day", "--budget-share", "--block-size", "--tape-size", "--theme", "--colorblind", "--no-color", "--no-flash", "NO_COLOR", "--watchlist", "chainwatch quotes"} {
		if !strings.Contains(string(readme), f) {
			t.Errorf("docs/configuration.md does not mention %s", f)
		}
	}
}
