package scanner

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/model/common"
	"chainwatch/scan"
)

// MetaMsg is the scanner's field list (free), or why it is missing.
type MetaMsg struct {
	Meta *api.ScannerMetadata
	Err  error
}

// DoneMsg is a finished run. Gen tells it from an older run's.
type DoneMsg struct {
	Gen uint64
	Out scan.Outcome
	Err error
}

func fetchScanMetaCmd(ctx context.Context, sh *common.Common, mode api.Mode) tea.Cmd {
	return func() tea.Msg {
		meta, _, err := sh.Client.ScannerMetadata(ctx, api.ReferenceParams{Mode: mode})
		return MetaMsg{Meta: meta, Err: err}
	}
}

func runScanCmd(ctx context.Context, sh *common.Common, g *api.Grammar, sc scan.Scan, mode api.Mode, gen uint64) tea.Cmd {
	return func() tea.Msg {
		out, err := scan.Run(ctx, sh.Client, g, sc, mode, sh.Now())
		return DoneMsg{Gen: gen, Out: out, Err: err}
	}
}

func (s *Model) onMeta(m MetaMsg) tea.Cmd {
	s.metaWait = false
	if m.Err != nil || m.Meta == nil {
		s.metaErr = m.Err
		return nil
	}
	s.grammar, s.metaErr = api.NewGrammar(m.Meta.Fields), nil
	s.checks = checkCache{}
	s.refreshSuggestions()
	return nil
}

// run is ctrl+r: refuse what cannot be sent, ask before the expensive run,
// else start.
func (s *Model) run() tea.Cmd {
	if s.running {
		s.note("a scan is already running", false)
		return nil
	}
	sc, rows := s.toScan()
	if len(rows) == 0 {
		s.note("nothing to run: type a formula, e.g. iv30 > 40, or load a saved scan with "+keyOf(s.keys.Saved), true)
		return s.enter(Edit)
	}
	for i, r := range rows {
		if c := s.check(r); c.bad {
			s.sel = s.indexOf(rows[i])
			s.note(fmt.Sprintf("formula %d: %s", s.sel+1, c.text), true)
			return s.enter(Edit)
		}
	}
	if err := sc.Params(s.mode()).Validate(); err != nil {
		msg, field := scan.DescribeError(err, sc)
		return tea.Batch(s.enter(Edit), s.markRow(rows, field, msg, false))
	}
	if sc.AllResults {
		return s.enter(Confirm)
	}
	return s.start()
}

// start sends the scan. The points are the App's to count (DoneMsg).
func (s *Model) start() tea.Cmd {
	sc, rows := s.toScan()
	if len(rows) == 0 {
		return nil
	}
	mode := s.mode()
	s.running, s.sent, s.sentScan, s.typed = true, rows, sc, false
	s.runGen++
	s.note(fmt.Sprintf("running… %d points", sc.Cost(mode)), false)
	return runScanCmd(s.ctx, s.sh, s.grammar, sc, mode, s.runGen)
}

func (s *Model) onDone(m DoneMsg) tea.Cmd {
	if m.Gen != s.runGen {
		return nil
	}
	s.running = false
	if m.Err != nil {
		msg, field := scan.DescribeError(m.Err, s.sentScan)
		var cmd tea.Cmd
		if s.state == Results {
			cmd = s.enter(Edit)
		}
		var ae *api.APIError
		refused := errors.As(m.Err, &ae) && ae.StatusCode == http.StatusBadRequest
		return tea.Batch(cmd, s.markRow(s.sent, field, msg, refused))
	}
	out := m.Out
	s.last = &out
	s.results = newScanResults(s.sh, out)
	s.results.SetSize(s.innerW(), s.resultsH())
	n := 0
	if out.Result != nil {
		n = len(out.Result.Output)
	}
	s.note(fmt.Sprintf("%d rows · %d points", n, spentOf(out.Resp)), false)
	switch {
	case n == 0:
		s.note("no symbol matches: every filter must hold (nothing else changed)", false)
		return nil
	case s.open && (s.state != Edit || s.typed):
		// The trader is typing or in a dialog: the results wait for
		// them rather than take the keys.
		s.note(fmt.Sprintf("%d rows · %d points · %s shows them", n, spentOf(out.Resp), keyOf(s.keys.Results)), false)
		return nil
	}
	return s.enter(Results)
}

func spentOf(r *api.Response) int {
	if r == nil {
		return 0
	}
	return r.Cost
}

// markRow shows msg and selects the row behind field when there is one.
// persist keeps the service's 400 on the row until the row changes; the
// client's own checks are not kept, they are made again at every run.
func (s *Model) markRow(rows []*scanRow, field int, msg string, persist bool) tea.Cmd {
	if field < 0 || field >= len(rows) {
		s.note(msg, true)
		return nil
	}
	r := rows[field]
	i := s.indexOf(r)
	if !persist {
		s.note(renumber(msg, field+1, i+1), true)
		if i >= 0 && s.state == Edit && i != s.sel {
			return s.selectRow(i)
		}
		return nil
	}
	if i >= 0 && i != field {
		// The message counts the scan's fields; blank rows are not sent,
		// so the row the trader sees may have a higher number.
		msg = renumber(msg, field+1, i+1)
	}
	s.note(msg, true)
	r.refused, r.refusedAs = msg, r.state()
	if i >= 0 && s.state == Edit && i != s.sel {
		return s.selectRow(i)
	}
	return nil
}

// renumber rewrites "formula n" as "formula m" in msg.
func renumber(msg string, n, m int) string {
	re := regexp.MustCompile(`\bformula ` + strconv.Itoa(n) + `\b`)
	return re.ReplaceAllLiteralString(msg, "formula "+strconv.Itoa(m))
}

func (s *Model) indexOf(r *scanRow) int {
	for i, x := range s.rows {
		if x == r {
			return i
		}
	}
	return -1
}

// checkResult is a formula's verdict for the rows table.
type checkResult struct {
	text string
	bad  bool
}

// checkCache keeps verdicts by formula text: the table is drawn every
// second and on every key, and parsing fifty formulas each time is waste.
type checkCache map[string]checkResult

// check is a row's verdict: the service's refusal while the formula is
// the one it refused, else the grammar's, else "not checked".
func (s *Model) check(r *scanRow) checkResult {
	switch {
	case r.blank():
		return checkResult{}
	case r.refusal() != "":
		return checkResult{text: r.refusal(), bad: true}
	case s.grammar == nil:
		return checkResult{text: "not checked yet"}
	}
	if c, ok := s.checks[r.Formula]; ok {
		return c
	}
	var c checkResult
	info, err := s.grammar.Check(r.Formula)
	switch {
	case err != nil:
		c = checkResult{text: err.Error(), bad: true}
	case info.Kind == api.FormulaBool:
		c = checkResult{text: "filter"}
	case info.Kind == api.FormulaString:
		c = checkResult{text: "text"}
	default: // a number, or a field of a type the grammar does not know
		c = checkResult{text: "value"}
	}
	if s.checks == nil || len(s.checks) > 512 {
		s.checks = checkCache{}
	}
	s.checks[r.Formula] = c
	return c
}
