package cmd

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/model/modeltest"
	"chainwatch/scan"
	"chainwatch/serve"
)

// keyDir is name's state directory under serve.
func (r *deskRig) keyDir(name string) string {
	return filepath.Join(r.home, "state", "chainwatch", "serve", name)
}

// keyFile writes name's config.toml, as the desk's admin would.
func (r *deskRig) keyFile(name, body string) string {
	r.t.Helper()
	if err := os.MkdirAll(r.keyDir(name), 0o700); err != nil {
		r.t.Fatal(err)
	}
	path := filepath.Join(r.keyDir(name), keyConfig)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		r.t.Fatal(err)
	}
	return path
}

// priceRule is an [[alert]] on sym's price above level.
func priceRule(name, sym, level string) string {
	return "[[alert]]\nname = \"" + name + "\"\nkind = \"price\"\nsymbol = \"" + sym + "\"\nabove = " + level + "\n"
}

// mark is where the screen's output is now, for waitAfter.
func (tm *term) mark() int { return tm.bytes() }

// waitAfter is waitFor on what the screen drew since mark.
func (tm *term) waitAfter(mark int, what string, ok func(string) bool) {
	tm.t.Helper()
	tm.waitFor(what, func(string) bool {
		tm.mu.Lock()
		since := ansi.Strip(tm.out.String()[mark:])
		tm.mu.Unlock()
		return ok(since)
	})
}

// alertsPage opens the alerts page and waits for the rule named rule.
func (tm *term) alertsPage(rule string) {
	tm.t.Helper()
	io.WriteString(tm.keys, "a")
	tm.waitFor("the alerts page with "+rule, func(s string) bool {
		return strings.Contains(s, "Alerts ·") && strings.Contains(s, rule)
	})
}

// A position saved in one key's session is in its own positions file,
// beside its own config file, and not on another key's positions page.
func TestServeKeysKeepTheirOwnPositions(t *testing.T) {
	r := startDesk(t, serve.Options{}, "ann", "bob")
	ann := r.screen(r.login("ann"))
	ann.waitLadder()
	io.WriteString(ann.keys, " ")
	ann.waitFor("a leg in the ticket", func(s string) bool { return strings.Contains(s, "ticket: single of 1 legs on SPY") })
	io.WriteString(ann.keys, "T")
	ann.waitFor("the strategy page", func(s string) bool { return strings.Contains(s, "Breakevens") })
	io.WriteString(ann.keys, "s")
	ann.waitFor("the position saved", func(s string) bool { return strings.Contains(s, "saved as position 1") })
	saved, err := config.LoadPositions(filepath.Join(r.keyDir("ann"), "positions.toml"))
	if err != nil || len(saved) != 1 || saved[0].Symbol != "SPY" {
		t.Fatalf("ann's positions file: %+v, %v", saved, err)
	}
	io.WriteString(ann.keys, "P")
	ann.waitFor("ann's position", func(s string) bool { return strings.Contains(s, "1 open") })

	bob := r.screen(r.login("bob"))
	bob.waitLadder()
	io.WriteString(bob.keys, "P")
	bob.waitFor("bob's positions page", func(s string) bool { return strings.Contains(s, "Positions · ") })
	if strings.Contains(bob.text(), "1 open") || strings.Contains(bob.text(), "+1 C") {
		t.Errorf("ann's position is on bob's page: %q", bob.text()[max(0, len(bob.text())-800):])
	}
	if _, err := os.Stat(filepath.Join(r.keyDir("bob"), "positions.toml")); err == nil {
		t.Error("bob has a positions file: he saved nothing")
	}
}

// Each key's [[alert]] rules, from its own config file, fire on its own
// alerts page and log and not on another's; a rule made on the screen is
// written to the key's own file; the rules both keys have on QQQ, which
// no screen shows, cost one request of the desk's one monitor.
func TestServeKeysAlertOnTheirOwnRules(t *testing.T) {
	r := startDesk(t, serve.Options{}, "ann", "bob")
	annFile := r.keyFile("ann", priceRule("ann qqq", "QQQ", "1"))
	bobFile := r.keyFile("bob", priceRule("bob qqq", "QQQ", "2"))
	ann := r.screen(r.login("ann"))
	ann.waitLadder()
	ann.alertsPage("ann qqq")
	ann.waitFor("ann's rule fired", func(s string) bool { return strings.Contains(s, "ann qqq: ") })

	bob := r.screen(r.login("bob"))
	bob.waitLadder()
	bob.alertsPage("bob qqq")
	bob.waitFor("bob's rule fired", func(s string) bool { return strings.Contains(s, "bob qqq: ") })
	if n := r.reqs.Count("/underlying-quotes"); n != 1 {
		t.Errorf("two keys' rules on QQQ made %d quote requests, want one: %v", n, r.reqs.Paths())
	}
	if strings.Contains(ann.text(), "bob qqq") || strings.Contains(bob.text(), "ann qqq") {
		t.Error("a key's rule or event is on the other's screen")
	}
	for name, rule := range map[string]string{"ann": "ann qqq", "bob": "bob qqq"} {
		log, err := os.ReadFile(filepath.Join(r.keyDir(name), config.AlertLogFile))
		if err != nil || !strings.Contains(string(log), `"rule":"`+rule+`"`) || strings.Count(string(log), `"event":"fired"`) != 1 {
			t.Errorf("%s's alert log: %s %v", name, log, err)
		}
	}

	// A rule made on bob's ladder (A, a level, enter) lands in bob's file.
	m := bob.mark()
	io.WriteString(bob.keys, "\x1b") // back to the ladder, alone: esc and A together are alt+A
	bob.waitAfter(m, "the ladder again", ladder.MatchString)
	io.WriteString(bob.keys, "A")
	bob.waitFor("the alert dialog", func(s string) bool { return strings.Contains(s, "New alert · SPY") })
	io.WriteString(bob.keys, "\r")
	bob.waitFor("the rule armed", func(s string) bool { return strings.Contains(s, "alert armed") })
	for path, want := range map[string]int{bobFile: 2, annFile: 1} {
		b, err := os.ReadFile(path)
		if n := strings.Count(string(b), "[[alert]]"); err != nil || n != want {
			t.Errorf("%s holds %d rules, want %d: %v\n%s", path, n, want, err, b)
		}
	}
}

// A key whose config file has a rule that does not hold has no alerts in
// its session, which says why with the file and line; the server and the
// other keys go on.
func TestServeBadRuleTurnsOffOnlyItsKeysAlerts(t *testing.T) {
	r := startDesk(t, serve.Options{}, "ann", "bob")
	r.keyFile("ann", priceRule("ann typo", "SPYY", "1"))
	r.keyFile("bob", priceRule("bob qqq", "QQQ", "2"))
	ann := r.screen(r.login("ann"))
	ann.waitLadder()
	io.WriteString(ann.keys, "a")
	ann.waitFor("why ann's alerts are off", func(s string) bool {
		return strings.Contains(s, "alerts are off in this session") && strings.Contains(s, "ann/config.toml:4:") &&
			strings.Contains(s, "no symbol SPYY; did you mean SPY?")
	})
	if !strings.Contains(r.log.String(), "a key's alerts are off") || !strings.Contains(r.log.String(), "key=ann") {
		t.Errorf("the server's log: %s", r.log.String())
	}
	bob := r.screen(r.login("bob"))
	bob.waitLadder()
	bob.alertsPage("bob qqq")
	bob.waitFor("bob's rule fired", func(s string) bool { return strings.Contains(s, "bob qqq: ") })
}

// The server's own [[alert]] rules are the desk's: on the desk's one
// monitor (no second one fetching), their events in the server's log and
// its alert log, on no key's screen; what they and a key's rules both
// watch is fetched once.
func TestServeServerRulesRunOnTheDesksMonitor(t *testing.T) {
	var logPath string
	var made *feed.Monitor
	r := startDeskWith(t, serve.Options{}, func(r *deskRig, cfg *model.Config) {
		path := filepath.Join(r.home, "config", "chainwatch", "config.toml")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(priceRule("desk qqq", "QQQ", "3")), 0o600); err != nil {
			t.Fatal(err)
		}
		fc, _, err := config.Load(path, true, scan.CheckSaved)
		if err != nil {
			t.Fatal(err)
		}
		set := watchSettings{mode: api.Live, budget: cfg.Budget, configPath: path, file: fc}
		stop, err := screenAlerts(cfg, &WatchOptions{Getenv: r.getenv, Now: modeltest.Clock}, set, true, &warnings{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		made = cfg.Monitor
		logPath = filepath.Join(r.home, "state", "chainwatch", config.AlertLogFile)
	}, "ann")
	if r.desk.mon != made || made == nil {
		t.Fatal("the desk's monitor is not the one the server's rules are on")
	}
	for i := 0; i < 750 && !strings.Contains(r.log.String(), "desk alert fired"); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(r.log.String(), `rule="desk qqq"`) {
		t.Fatalf("the server's log: %s", r.log.String())
	}
	r.keyFile("ann", priceRule("ann qqq", "QQQ", "1"))
	ann := r.screen(r.login("ann"))
	ann.waitLadder()
	ann.alertsPage("ann qqq")
	ann.waitFor("ann's rule fired", func(s string) bool { return strings.Contains(s, "ann qqq: ") })
	if strings.Contains(ann.text(), "desk qqq") {
		t.Error("the desk's rule is on a key's screen")
	}
	if n := r.reqs.Count("/underlying-quotes"); n != 1 {
		t.Errorf("the desk's and ann's rules on QQQ made %d quote requests, want one: %v", n, r.reqs.Paths())
	}
	if b, err := os.ReadFile(logPath); err != nil || !strings.Contains(string(b), `"rule":"desk qqq"`) {
		t.Errorf("the server's alert log: %s %v", b, err)
	}
}

// A key's config file that does not load (bad TOML) is said on its
// watchlist page and its alerts page and in the server's log, instead of
// its watchlist and scans going missing without a word; the file is left
// as it is.
func TestServeKeyConfigThatDoesNotLoadIsSaid(t *testing.T) {
	r := startDesk(t, serve.Options{}, "ann")
	body := "watchlist = [\"SPY\", \"QQQ\"]\n[[alert\n"
	path := r.keyFile("ann", body)
	cfg := r.desk.base
	release := r.desk.keyState("ann", &cfg)
	defer release()
	said := strings.Join(cfg.WatchlistSkipped, "\n")
	if !strings.Contains(said, "your config file is not used until it is corrected") || !strings.Contains(said, "config.toml") {
		t.Errorf("the watchlist page is told %q", said)
	}
	if !strings.Contains(cfg.AlertsOff, "alerts are off") {
		t.Errorf("the alerts page is told %q", cfg.AlertsOff)
	}
	if !strings.Contains(r.log.String(), "a key's config file does not load") || !strings.Contains(r.log.String(), "key=ann") {
		t.Errorf("the server's log: %s", r.log.String())
	}
	if cfg.SaveWatchlist == nil || cfg.SaveWatchlist([]string{"IWM"}) == nil {
		t.Error("saving the watchlist wrote over a file that does not load")
	}
	if got, _ := os.ReadFile(path); string(got) != body {
		t.Errorf("the file became %q", got)
	}
}

// A key's state belongs to the key, not to its comment: the directory
// records the fingerprint of the key that first used it, and another key
// that comes to carry the same name (the first one's line gone) is
// refused, both fingerprints in the server's log; two keys of one name
// in the file at once are both refused. The first key still opens its
// own state.
func TestServeStateBelongsToTheKey(t *testing.T) {
	r := startDesk(t, serve.Options{}, "desk-a")
	laptop, other := r.keys["desk-a"], newKey(t)
	fps := []string{gossh.FingerprintSHA256(laptop.PublicKey()), gossh.FingerprintSHA256(other.PublicKey())}
	if _, errOut, code := runOver(t, r.login("desk-a"), "version"); code != 0 {
		t.Fatalf("desk-a's first session: %d, %q", code, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(r.keyDir("desk-a"), keyOwner)); err != nil || strings.TrimSpace(string(b)) != fps[0] {
		t.Fatalf("the state directory does not record its key: %q, %v", b, err)
	}
	positions := filepath.Join(r.keyDir("desk-a"), "positions.toml")
	if err := os.WriteFile(positions, []byte("# desk-a's book\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	line := func(k gossh.Signer, comment string) string {
		return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey()))) + " " + comment + "\n"
	}
	authorized := filepath.Join(r.home, "authorized_keys")
	write := func(lines ...string) {
		if err := os.WriteFile(authorized, []byte(strings.Join(lines, "")), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(line(other, "desk-a@other"))
	c, err := r.dial(gossh.PublicKeys(other))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, errOut, code := runOver(t, c, "version"); code != 1 || !strings.Contains(errOut, "cannot open") {
		t.Fatalf("another key named desk-a: %d, %q; want it refused", code, errOut)
	}
	if l := r.log.String(); !strings.Contains(l, fps[0]) || !strings.Contains(l, fps[1]) {
		t.Fatalf("the log does not name both keys: %s", l)
	}
	write(line(laptop, "desk-a@laptop"), line(other, "desk-a@other"))
	if c, err := r.dial(gossh.PublicKeys(laptop)); err == nil {
		c.Close()
		t.Fatal("a key of a clashing name logged in")
	}
	write(line(laptop, "desk-a@laptop"))
	if _, errOut, code := runOver(t, r.login("desk-a"), "version"); code != 0 {
		t.Fatalf("desk-a's own key again: %d, %q", code, errOut)
	}
	if b, err := os.ReadFile(positions); err != nil || string(b) != "# desk-a's book\n" {
		t.Fatalf("desk-a's positions: %q, %v", b, err)
	}
}
