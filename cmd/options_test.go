package cmd

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

// Each command in the gh style: its constructor parses the flags into its
// options and hands them to runF, so the parsing is tested without running
// anything, and its run function is tested without a terminal.

func TestScanOptionsFromFlags(t *testing.T) {
	deps := cli{}.deps(&bytes.Buffer{}, &bytes.Buffer{})
	var got *ScanOptions
	cmd := NewCmdScan(deps, func(o *ScanOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--formula", "min(iv30, hv30)", "--formula", "iv30 > 40", "--all=false", "--mode", "delayed", "--csv", "--sort", "iv30:asc"})
	if err := cmd.Execute(); err != nil || got == nil {
		t.Fatal(err, got)
	}
	if !slices.Equal(got.Formulas, []string{"min(iv30, hv30)", "iv30 > 40"}) || got.All || !got.AllSet ||
		!got.ModeSet || got.Mode != "delayed" || got.ConfigSet || got.Export.format().kind != kindCSV || got.Sort != "iv30:asc" {
		t.Fatalf("%+v", got)
	}
	cmd = NewCmdScan(deps, func(o *ScanOptions) error { got = o; return nil })
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SetArgs([]string{"--json", "--csv"})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "none of the others can be") {
		t.Fatalf("--json with --csv: %v", err)
	}
}

// TestScanRunWithoutTerminal: scanRun prints to the writer it is given.
func TestScanRunWithoutTerminal(t *testing.T) {
	env := homeEnv(t)
	var out bytes.Buffer
	err := scanRun(&ScanOptions{List: true, headless: headless{Out: &out, ErrOut: &out, Getenv: func(k string) string { return env[k] }, SandboxSpeed: 1,
		Now: time.Now, Context: t.Context()}})
	if err != nil || !strings.Contains(out.String(), "Presets:") {
		t.Fatalf("%v\n%s", err, out.String())
	}
}

func TestWatchOptionsFromFlags(t *testing.T) {
	deps := cli{}.deps(&bytes.Buffer{}, &bytes.Buffer{})
	var got *WatchOptions
	cmd := NewCmdRoot(deps, func(o *WatchOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"qqq", "--mode", "delayed", "--tape-size", "200", "--no-color"})
	if err := cmd.Execute(); err != nil || got == nil {
		t.Fatal(err, got)
	}
	if !slices.Equal(got.Args, []string{"qqq"}) || got.Flags.mode != "delayed" || got.Flags.tapeSize != 200 || !got.Flags.noColor ||
		!got.Changed("tape-size") || got.Changed("theme") || got.Now == nil {
		t.Fatalf("%+v", got)
	}
}

func TestLoginSandboxStatusOptionsFromFlags(t *testing.T) {
	deps := cli{}.deps(&bytes.Buffer{}, &bytes.Buffer{})
	var login *LoginOptions
	cmd := NewCmdLogin(deps, func(o *LoginOptions) error { login = o; return nil })
	cmd.SetArgs([]string{"--no-browser", "--scope", "a,b", "--auth-url", "http://127.0.0.1:1"})
	if err := cmd.Execute(); err != nil || !login.NoBrowser || !slices.Equal(login.Scopes, []string{"a", "b"}) || login.Service.authURL != "http://127.0.0.1:1" {
		t.Fatalf("login: %v %+v", err, login)
	}
	var sb *SandboxOptions
	cmd = NewCmdSandbox(Deps{}, func(o *SandboxOptions) error { sb = o; return nil })
	cmd.SetArgs([]string{"--listen", "127.0.0.1:0", "--faults", "0.1:500"})
	if err := cmd.Execute(); err != nil || sb.Listen != "127.0.0.1:0" || sb.Faults != "0.1:500" || sb.Plan != "professional" {
		t.Fatalf("sandbox: %v %+v", err, sb)
	}
	var st *StatusOptions
	cmd = NewCmdStatus(deps, func(o *StatusOptions) error { st = o; return nil })
	cmd.SetArgs([]string{"--token-file", "/tmp/x.json"})
	if err := cmd.Execute(); err != nil || st.Service.tokenFile != "/tmp/x.json" {
		t.Fatalf("status: %v %+v", err, st)
	}
}
