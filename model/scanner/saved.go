package scanner

import (
	"chainwatch/scan"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
)

// dialog holds the values the states' own forms bind to.
type dialog struct {
	yes     bool
	pick    int
	text    string
	list    *huh.Select[int]
	delName string
}

// enter switches the modal to state st with its form.
func (s *Model) enter(st Screen) tea.Cmd {
	s.state = st
	s.dialog.list = nil
	switch st {
	case Edit:
		return s.editForm()
	case Confirm:
		return s.confirmForm()
	case Saved:
		return s.savedForm()
	case SaveAs:
		return s.saveAsForm()
	case DeleteConfirm:
		return s.deleteForm()
	}
	s.form = nil // results: the table takes the keys
	return nil
}

// scanList is what the saved-scans list offers: the config file's scans,
// then the presets.
func (s *Model) scanList() []scan.Scan {
	return append(append([]scan.Scan(nil), s.saved...), scan.Presets()...)
}

func (s *Model) confirmForm() tea.Cmd {
	sc, _ := s.toScan()
	mode := s.mode()
	top := sc
	top.AllResults = false
	desc := fmt.Sprintf("Every matching symbol costs %d points %s; the top 20 costs %d.", sc.Cost(mode), mode, top.Cost(mode))
	if left, ok := s.pointsLeft(); ok {
		desc += fmt.Sprintf(" %s points left this month.", scan.GroupDigits(left))
	}
	s.dialog.yes = false
	c := huh.NewConfirm().Title("Run for all results?").Description(desc).
		Affirmative(fmt.Sprintf("Run · %d points", sc.Cost(mode))).Negative("Cancel").Value(&s.dialog.yes)
	return s.setForm(huh.NewGroup(c))
}

func (s *Model) savedForm() tea.Cmd {
	list := s.scanList()
	opts := make([]huh.Option[int], len(list))
	for i, sc := range list {
		label := sc.Name + "  ·  " + summary(sc)
		if sc.Preset {
			label += "  (preset)"
		}
		opts[i] = huh.NewOption(ansi.Truncate(label, s.innerW()-4, "…"), i)
	}
	s.dialog.pick = 0
	sel := huh.NewSelect[int]().Title("Saved scans").
		Description(helpText(s.keys.SavedHelp())).
		Options(opts...).Height(max(min(len(opts)+2, s.h-6), 4)).Value(&s.dialog.pick)
	s.dialog.list = sel
	return s.setForm(huh.NewGroup(sel))
}

// summary is a scan's formulas on one line, sorts marked.
func summary(sc scan.Scan) string {
	parts := make([]string, 0, len(sc.Fields))
	for _, f := range sc.Fields {
		p := f.Formula
		switch f.Sort {
		case "desc":
			p += " ↓"
		case "asc":
			p += " ↑"
		}
		parts = append(parts, p)
	}
	s := strings.Join(parts, " · ")
	if sc.AllResults {
		s += " · all results"
	}
	return s
}

func (s *Model) saveAsForm() tea.Cmd {
	s.dialog.text = ""
	if sc, ok := scan.Find(s.saved, s.name); ok && !sc.Preset {
		s.dialog.text = s.name
	}
	in := huh.NewInput().Title("Save the scan as").
		Description("the name it is listed under in the saved scans (" + keyOf(s.keys.Saved) + "); a saved scan of that name is replaced").
		CharLimit(60).Value(&s.dialog.text).Validate(s.checkName)
	return s.setForm(huh.NewGroup(in))
}

// checkName refuses an empty name and a preset's: presets ship with
// chainwatch and a saved scan must not hide one.
func (s *Model) checkName(name string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return fmt.Errorf("type a name")
	}
	for _, p := range scan.Presets() {
		if strings.EqualFold(p.Name, name) {
			return fmt.Errorf("%q is a preset's name; choose another", p.Name)
		}
	}
	return nil
}

func (s *Model) saveAs(name string) tea.Cmd {
	name = strings.TrimSpace(name)
	sc, rows := s.toScan()
	switch {
	case len(rows) == 0:
		s.note("nothing to save: type a formula first", true)
	case s.save == nil:
		s.note("saving is not available: there is no config file path", true)
	default:
		sc.Name = name
		if err := s.save(sc); err != nil {
			s.note("not saved: "+err.Error(), true)
			break
		}
		s.saved = replaceScan(s.saved, sc)
		s.name = name
		s.note("saved as "+name+" in the config file", false)
	}
	return s.enter(Edit)
}

func replaceScan(list []scan.Scan, sc scan.Scan) []scan.Scan {
	for i := range list {
		if strings.EqualFold(list[i].Name, sc.Name) {
			list[i] = sc
			return list
		}
	}
	return append(list, sc)
}

// askDelete is ctrl+x on the saved-scans list.
func (s *Model) askDelete() tea.Cmd {
	if s.dialog.list == nil {
		return nil
	}
	i, ok := s.dialog.list.Hovered()
	list := s.scanList()
	if !ok || i < 0 || i >= len(list) {
		return nil
	}
	if list[i].Preset {
		s.note(list[i].Name+" is a preset: presets ship with chainwatch and cannot be deleted", true)
		return nil
	}
	s.dialog.delName = list[i].Name
	return s.enter(DeleteConfirm)
}

func (s *Model) deleteForm() tea.Cmd {
	s.dialog.yes = false
	c := huh.NewConfirm().Title("Delete the saved scan " + s.dialog.delName + "?").
		Description("it is removed from the config file").
		Affirmative("Delete").Negative("Keep").Value(&s.dialog.yes)
	return s.setForm(huh.NewGroup(c))
}

func (s *Model) deleteSaved() tea.Cmd {
	name := s.dialog.delName
	switch {
	case !s.dialog.yes:
		s.note("kept "+name, false)
	case s.delete == nil:
		s.note("deleting is not available: there is no config file path", true)
	default:
		if err := s.delete(name); err != nil {
			s.note("not deleted: "+err.Error(), true)
			break
		}
		for i := range s.saved {
			if strings.EqualFold(s.saved[i].Name, name) {
				s.saved = append(s.saved[:i], s.saved[i+1:]...)
				break
			}
		}
		if strings.EqualFold(s.name, name) {
			s.name = "" // the title no longer names a scan that is gone
		}
		s.note("deleted "+name, false)
	}
	return s.enter(Saved)
}

// dialogFiltering reports whether the saved list is taking a filter, when
// esc clears the filter rather than leaving.
func (s *Model) dialogFiltering() bool {
	return s.dialog.list != nil && s.dialog.list.GetFiltering()
}
