package cmd

import (
	"testing"

	"chainwatch/api"
	"chainwatch/config/configtest"
	"chainwatch/model"
	"chainwatch/scan"
)

// TestWatchScans: the watch screen gets the config file's scans and
// saves to and deletes from the file it loaded: --config's, else the
// default path, created on the first save.
func TestWatchScans(t *testing.T) {
	env := homeEnv(t)
	path := configtest.Write(t, t.TempDir(), "# mine\n[[scan]]\nname = \"Old\"\n  [[scan.field]]\n  formula = \"iv30\"\n", 0o600)
	res := watchCLI{env: env, during: func(cfg model.Config) error {
		if err := cfg.SaveScan(scan.Scan{Name: "New", Fields: []api.ScanFieldParam{{Formula: "hv30"}}}); err != nil {
			return err
		}
		return cfg.DeleteScan("old")
	}}.run(t, "--config", path)
	if res.err != nil {
		t.Fatal(res.err)
	}
	if c := res.cfg; len(c.Scans) != 1 || c.Scans[0].Name != "Old" || c.Scans[0].Fields[0].Formula != "iv30" {
		t.Fatalf("scans %+v", c.Scans)
	}
	if again := (watchCLI{env: env}).run(t, "--config", path); again.err != nil || len(again.cfg.Scans) != 1 || again.cfg.Scans[0].Name != "New" {
		t.Fatalf("the file holds %v %+v", again.err, again.cfg.Scans)
	}

	res = watchCLI{env: env, during: func(cfg model.Config) error {
		return cfg.SaveScan(scan.Scan{Name: "First", Fields: []api.ScanFieldParam{{Formula: "iv30"}}})
	}}.run(t)
	if res.err != nil || len(res.cfg.Scans) != 0 {
		t.Fatalf("%v %+v", res.err, res.cfg)
	}
	if again := (watchCLI{env: env}).run(t); again.err != nil || len(again.cfg.Scans) != 1 || again.cfg.Scans[0].Name != "First" {
		t.Fatalf("next run: %v %+v", again.err, again.cfg)
	}
}
