package config_test

import (
	"os"
	"strings"
	"testing"

	"chainwatch/config"
	"chainwatch/config/configtest"
)

const alertsConfig = `# rules
symbol = "SPY"

[[alert]]
name = "SPY above 700"   # the demo
kind = "PRICE"
symbol = "spy"
above = 700

[[alert]]
kind = "block"
contract = "spy261124c00700000"
min_size = 1000
exec = ["/usr/bin/logger", "-t", "chainwatch"]

[alerts]
every = "10s"
desktop = "osc777"
`

func TestConfigAlerts(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), alertsConfig, 0o600)
	fc, _, err := config.Load(path, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fc.Alerts) != 2 || fc.AlertLines[0] != 4 || fc.AlertLines[1] != 10 {
		t.Fatalf("alerts %+v at lines %v", fc.Alerts, fc.AlertLines)
	}
	a, b := fc.Alerts[0], fc.Alerts[1]
	if a.Kind != "price" || a.Symbol != "SPY" || *a.Above != 700 || !a.IsEnabled() {
		t.Errorf("first rule %+v", a)
	}
	if b.Contract != "SPY261124C00700000" || *b.MinSize != 1000 || len(b.Exec) != 3 {
		t.Errorf("second rule %+v", b)
	}
	if fc.AlertSettings.Every != "10s" || fc.AlertSettings.Desktop != "osc777" {
		t.Errorf("[alerts] %+v", fc.AlertSettings)
	}
}

// TestConfigAlertErrors: every mistake in an [[alert]] names the file,
// the line of the key at fault and, for a word it does not know, the
// nearest one.
func TestConfigAlertErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{"[[alert]]\nkind = \"price\"\nsymbol = \"SPY\"\nabve = 700\n", ":4: [[alert]]: unknown key abve; did you mean above?"},
		{"[[alert]]\nkind = \"prise\"\nsymbol = \"SPY\"\nabove = 700\n", `:2: [[alert]] number 1: kind "prise": want one of price, bid,`},
		{"[[alert]]\nkind = \"prise\"\nsymbol = \"SPY\"\nabove = 700\n", "did you mean price?"},
		{"\n[[alert]]\nname = \"x\"\nkind = \"price\"\nsymbol = \"S P Y\"\nabove = 700\n", `:5: [[alert]] "x": symbol "S P Y"`},
		{"[[alert]]\nkind = \"mid\"\ncontract = \"SPY261124X00700000\"\nabove = 2\n", ":3: [[alert]] number 1: contract: OSI symbol"},
		{"[[alert]]\nkind = \"mid\"\nsymbol = \"SPY\"\nabove = 2\n", "a mid alert needs contract"},
		{"[[alert]]\nkind = \"price\"\nsymbol = \"SPY\"\n", "needs above or below"},
		{"[[alert]]\nkind = \"price\"\nsymbol = \"SPY\"\nabove = 1\nbelow = 2\n", ":5: [[alert]] number 1: give above or below, not both"},
		{"[[alert]]\nkind = \"block\"\nsymbol = \"SPY\"\nmin_size = 100\nabove = 3\n", ":5: [[alert]] number 1: above does not apply to a block alert"},
		{"[[alert]]\nkind = \"block\"\nsymbol = \"SPY\"\nmin_size = 0\n", "min_size = 0: want at least 1"},
		{"[[alert]]\nkind = \"iv30\"\nsymbol = \"SPY\"\nmove = 2\nfrom = \"opne\"\n", "did you mean open?"},
		{"[[alert]]\nkind = \"price\"\nsymbol = \"SPY\"\nabove = \"high\"\n", ":4: alert.above: wrong type"},
		{"[alerts]\nevery = \"0.1s\"\n", ":2: [alerts] every \"0.1s\": want a duration of at least 1s"},
		{"[alerts]\ndesktop = \"osc8\"\n", "did you mean osc9?"},
		{"[alerts]\nbel = true\n", ":2: [alerts]: unknown key bel; did you mean bell?"},
	}
	for _, c := range cases {
		path := configtest.Write(t, t.TempDir(), c.body, 0o600)
		_, _, err := config.Load(path, true, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), path) {
			t.Errorf("%q:\n got %v\nwant %s...%s", c.body, err, path, c.want)
		}
	}
}

// TestSaveAlertKeepsTheFile: a rule saved from the screen is appended as
// an [[alert]] block, an edit replaces only its block, a delete removes
// it, and every other byte (comments included) stays.
func TestSaveAlertKeepsTheFile(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), alertsConfig, 0o600)
	name := func(a config.AlertTable) string {
		if a.Name != "" {
			return a.Name
		}
		return a.Kind + " " + a.Symbol + a.Contract
	}
	lv := 2.5
	add := config.AlertTable{Kind: "mid", Contract: "SPY261124C00700000", Above: &lv}
	if err := config.SaveAlert(path, "", add, name); err != nil {
		t.Fatal(err)
	}
	lv2 := 3.0
	add.Above = &lv2
	if err := config.SaveAlert(path, "mid SPY261124C00700000", add, name); err != nil {
		t.Fatal(err)
	}
	if err := config.DeleteAlert(path, "SPY above 700", name); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	text := string(b)
	for _, want := range []string{"# rules\n", "[alerts]\nevery = \"10s\"", "kind = \"mid\"\ncontract = \"SPY261124C00700000\"\nabove = 3\n", "min_size = 1000"} {
		if !strings.Contains(text, want) {
			t.Errorf("the file lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "the demo") || strings.Count(text, "[[alert]]") != 2 {
		t.Errorf("the deleted rule or an extra block:\n%s", text)
	}
}
