package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Rules made or edited on the screen are written to the config file as
// scans are (scans_file.go): as text, only the rule's [[alert]] block
// changing, and put in place only after the file reads back with the
// intended rules and every other setting as before.

// AlertName names a rule: its name, else what package alert calls it
// (the rule in words). Blocks are matched by it, without regard to case.
type AlertName func(AlertTable) string

// SaveAlert writes t as an [[alert]] of the config file at path: in place
// of the rule named old (an edit), else appended (old "" or not found).
func SaveAlert(path, old string, t AlertTable, nameOf AlertName) error {
	if err := t.Check(); err != nil {
		return fmt.Errorf("cannot save the alert: %w", err)
	}
	return editAlerts(path, "save the alert "+strconv.Quote(nameOf(t)), func(text string, blocks []scanBlock, fc File) (textEdit, []AlertTable, error) {
		want := append([]AlertTable(nil), fc.Alerts...)
		block := renderAlert(t, newline(text))
		if i := alertIndex(fc.Alerts, old, nameOf); i >= 0 {
			want[i] = t
			return textEdit{lo: blocks[i].start, hi: blocks[i].end, insert: block}, want, nil
		}
		return textEdit{lo: len(text), hi: len(text), insert: appendBlock(text, block)}, append(want, t), nil
	})
}

// DeleteAlert removes the rule named name from the config file at path.
func DeleteAlert(path, name string, nameOf AlertName) error {
	return editAlerts(path, "delete the alert "+strconv.Quote(name), func(text string, blocks []scanBlock, fc File) (textEdit, []AlertTable, error) {
		i := alertIndex(fc.Alerts, name, nameOf)
		if i < 0 {
			return textEdit{}, nil, fmt.Errorf("%s has no alert named %q", path, name)
		}
		want := append(append([]AlertTable(nil), fc.Alerts[:i]...), fc.Alerts[i+1:]...)
		return deleteBlock(text, blocks[i]), want, nil
	})
}

func alertIndex(list []AlertTable, name string, nameOf AlertName) int {
	if name == "" {
		return -1
	}
	for i, a := range list {
		if strings.EqualFold(nameOf(a), name) {
			return i
		}
	}
	return -1
}

type alertEdit func(text string, blocks []scanBlock, fc File) (textEdit, []AlertTable, error)

// editAlerts is editScans for the [[alert]] blocks.
func editAlerts(path, what string, edit alertEdit) error {
	return editFile(path, nil, what, "the alert's block", func(text string, fc File) (textEdit, func(File) error, error) {
		blocks := findBlocks(text, "alert")
		if len(blocks) != len(fc.Alerts) {
			return textEdit{}, nil, fmt.Errorf("%s: found %d [[alert]] headers for %d alerts; write each alert as an [[alert]] table, not inline", path, len(blocks), len(fc.Alerts))
		}
		e, want, err := edit(text, blocks, fc)
		if err != nil {
			return textEdit{}, nil, err
		}
		if !onlyBlocks(text, e, blocks) {
			return textEdit{}, nil, fmt.Errorf("the edit would remove text outside the alert's [[alert]] block; %s is unchanged", path)
		}
		verify := func(after File) error {
			if !reflect.DeepEqual(normalAlerts(after.Alerts), normalAlerts(want)) {
				return fmt.Errorf("the edited file would not hold the intended alerts; %s is unchanged", path)
			}
			before := fc
			after.Alerts, before.Alerts = nil, nil
			return sameSettings(path, after, before)
		}
		return e, verify, nil
	})
}

// normalAlerts are the rules as checked, for comparing two lists.
func normalAlerts(list []AlertTable) []AlertTable {
	out := make([]AlertTable, len(list))
	for i, a := range list {
		_ = a.Check()
		if len(a.Exec) == 0 {
			a.Exec = nil
		}
		out[i] = a
	}
	return out
}

// renderAlert writes t as an [[alert]] block, its keys in AlertKeys order.
func renderAlert(t AlertTable, nl string) string {
	var b strings.Builder
	line := func(key, val string) { fmt.Fprintf(&b, "%s = %s%s", key, val, nl) }
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	b.WriteString("[[alert]]" + nl)
	for _, kv := range []struct {
		key, val string
		ok       bool
	}{
		{"name", tomlString(t.Name), t.Name != ""},
		{"kind", tomlString(t.Kind), true},
		{"symbol", tomlString(t.Symbol), t.Symbol != ""},
		{"contract", tomlString(t.Contract), t.Contract != ""},
	} {
		if kv.ok {
			line(kv.key, kv.val)
		}
	}
	for _, f := range []struct {
		key string
		v   *float64
	}{{"above", t.Above}, {"below", t.Below}, {"margin", t.Margin}, {"move", t.Move}} {
		if f.v != nil {
			line(f.key, num(*f.v))
		}
	}
	if t.From != "" {
		line("from", tomlString(t.From))
	}
	if t.MinSize != nil {
		line("min_size", strconv.FormatInt(*t.MinSize, 10))
	}
	if t.MinPremium != nil {
		line("min_premium", num(*t.MinPremium))
	}
	if t.Ratio != nil {
		line("ratio", num(*t.Ratio))
	}
	if t.MinVolume != nil {
		line("min_volume", strconv.FormatInt(*t.MinVolume, 10))
	}
	if t.Scan != "" {
		line("scan", tomlString(t.Scan))
	}
	if len(t.Exec) > 0 {
		args := make([]string, len(t.Exec))
		for i, a := range t.Exec {
			args[i] = tomlString(a)
		}
		line("exec", "["+strings.Join(args, ", ")+"]")
	}
	if t.Enabled != nil && !*t.Enabled {
		line("enabled", "false")
	}
	return b.String()
}
