package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRefusalsEchoAtMostSixtyCharacters: 52 of 124 refusals of long values
// echoed them whole (lines up to 200,096 characters), and every integer
// flag twice (pflag's message). Each refusal of a value of 5,000
// characters now echoes at most text.EchoMax of it, once, on one line.
func TestRefusalsEchoAtMostSixtyCharacters(t *testing.T) {
	long := strings.Repeat("x", 5000)
	digits := strings.Repeat("9", 5000)
	for _, args := range [][]string{
		{"history", "backfill", "SPY", "--days", long},
		{"history", "backfill", "SPY", "--days", digits},
		{"chain", "SPY", "--strikes", long},
		{"chain", "SPY", "--watch", long},
		{"sandbox", "--rate", long},
		{"history", "prune", "--before", long},
		{"history", long},
		{"history", "--" + long},
		{"chain", long},
		{"chain", "SPY", "--expiry", long},
		{"chain", "SPY", "--mode", long},
		{"calendar", "SPY", "--type", long},
		{"taq", "SPY", "--quotes", long},
		{"chain", "SPY", "--base-url", "ftp://" + long},
		{"chain", "SPY", "--jq", "." + long + "("},
		{long},
		{"serve", "--listen", long},
	} {
		var out, errOut syncBuffer
		code := Execute(cli{env: homeEnv(t)}.deps(&out, &errOut), args)
		msg := errOut.String()
		if code != ExitInput {
			t.Errorf("%.40q: exit %d, want 2\n%.300s", args, code, msg)
		}
		if n := strings.Count(msg, "xxxxxxxxxx")/6 + strings.Count(msg, "9999999999")/6; n > 1 ||
			strings.Contains(msg, strings.Repeat("x", 61)) || strings.Contains(msg, strings.Repeat("9", 61)) {
			t.Errorf("%.40q: the value is echoed past 60 characters or more than once:\n%.400s", args, msg)
		}
		for _, line := range strings.Split(msg, "\n") {
			if utf8.RuneCountInString(line) > 400 {
				t.Errorf("%.40q: a line of %d characters", args, utf8.RuneCountInString(line))
			}
		}
	}
}

// TestLongAlertNameIsClipped: an alert name of 5,000 characters gave a
// 5,075-character error.
func TestLongAlertNameIsClipped(t *testing.T) {
	env := homeEnv(t)
	cfg := filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("n", 5000)
	body := "[[alert]]\nname = \"" + name + "\"\nkind = \"price\"\nsymbol = \"SPY\"\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut syncBuffer
	code := Execute(cli{env: env}.deps(&out, &errOut), []string{"alerts", "--cost"})
	msg := errOut.String()
	if code != ExitInput || !strings.Contains(msg, "nnn…") || strings.Contains(msg, strings.Repeat("n", 61)) || len(msg) > 600 {
		t.Fatalf("exit %d, %d characters:\n%.400s", code, len(msg), msg)
	}
}
