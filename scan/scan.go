// Package scan is a custom scan as chainwatch runs it, with no terminal in
// it: its definition (Scan), the presets, running one (Run, the one path of
// the modal and `chainwatch scan`), its outcome as a table, and the words
// for every way it can fail (DescribeError).
package scan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/text"
)

// Scan is a custom scan as chainwatch keeps it: saved in the config file,
// shipped as a preset, or built in the modal. It is the one shape the
// modal, the config file and `chainwatch scan` share, so a scan built in
// one place runs the same in the others.
type Scan struct {
	Name        string
	Description string // one line; presets have one, saved scans may not
	Fields      []api.ScanFieldParam
	AllResults  bool
	Preset      bool // shipped with chainwatch, not from the config file
}

// FromSaved is the runnable scan of a config file's [[scan]].
func FromSaved(c config.SavedScan) Scan {
	return Scan{Name: c.Name, Description: c.Description, Fields: c.Fields, AllResults: c.AllResults}.Clone()
}

// FromSavedAll is FromSaved of each, in order: the config file's scans
// as the modal lists them and `chainwatch scan --name` finds them.
func FromSavedAll(list []config.SavedScan) []Scan {
	out := make([]Scan, len(list))
	for i, c := range list {
		out[i] = FromSaved(c)
	}
	return out
}

// Saved is s as the config file keeps it.
func (s Scan) Saved() config.SavedScan {
	c := s.Clone()
	return config.SavedScan{Name: c.Name, Description: c.Description, Fields: c.Fields, AllResults: c.AllResults}
}

// CheckSaved checks a saved scan against the client's own rules of a scan
// (two returned fields with one output key, say) in the words the modal
// uses when it is run: the config.ScanRule that loading and saving the
// config file apply, so a hand-edited file fails at start, not at the
// first run.
func CheckSaved(c config.SavedScan) error {
	s := FromSaved(c)
	if err := s.Params(api.Live).Validate(); err != nil {
		msg, _ := DescribeError(err, s)
		return errors.New(msg)
	}
	return nil
}

// endpoint is the priced operation the scan is: all_results costs five
// times more, which is why it is a separate endpoint in the cost table.
func (s Scan) endpoint() api.Endpoint {
	if s.AllResults {
		return api.EndpointScanAllResults
	}
	return api.EndpointScan
}

// Cost is the points one run costs in mode m (30 or 150 live, 50 or 250
// delayed), shown before the run because a scan is the most expensive
// request chainwatch makes. The scanner has no date, so it is never
// historical.
func (s Scan) Cost(m api.Mode) int { return api.Cost(s.endpoint(), m, false) }

// Params is the request for mode m. The fields are copied, so the caller
// may keep editing the scan while the request is in flight.
func (s Scan) Params(m api.Mode) api.ScanParams {
	return api.ScanParams{Fields: slices.Clone(s.Fields), AllResults: s.AllResults, Mode: m}
}

// Columns are the output keys of the fields the results include, in the
// scan's order: what the service returns after symbol and company. A
// finished scan shows these less its filters (Outcome.Columns).
func (s Scan) Columns() []string {
	var cols []string
	for _, f := range s.Fields {
		if f.Included() {
			cols = append(cols, f.Key())
		}
	}
	return cols
}

// Clone returns a copy that shares nothing with s (a field's
// IncludeInResultset is a pointer), so a scan handed to the modal or the
// config writer cannot be changed behind the caller's back.
func (s Scan) Clone() Scan {
	c := s
	c.Fields = make([]api.ScanFieldParam, len(s.Fields))
	for i, f := range s.Fields {
		if f.IncludeInResultset != nil {
			f.IncludeInResultset = api.Ptr(*f.IncludeInResultset)
		}
		c.Fields[i] = f
	}
	return c
}

// Find looks a name up, saved scans first (case-insensitive), then
// presets: a user's own scan of a preset's name is the one they mean.
func Find(saved []Scan, name string) (Scan, bool) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Scan{}, false
	}
	for _, list := range [][]Scan{saved, Presets()} {
		for _, s := range list {
			if strings.EqualFold(strings.TrimSpace(s.Name), name) {
				return s.Clone(), true
			}
		}
	}
	return Scan{}, false
}

// Outcome is a finished scan.
type Outcome struct {
	Scan    Scan
	Mode    api.Mode
	Result  *api.ScanResult // nil Output slice when no row matched (204 included)
	Resp    *api.Response   // points spent; may be nil on a client-side error
	Columns []string        // the columns shown: Scan.Columns() less the filters (ValueColumns)
	At      time.Time
}

// Rows is the number of rows the scan returned.
func (o Outcome) Rows() int {
	if o.Result == nil {
		return 0
	}
	return len(o.Result.Output)
}

// FormulaError is a formula refused client-side, before any point is
// spent. Index is into Scan.Fields (zero-based, like the service's
// fields[N]); Error counts from 1 because it is read by people.
type FormulaError struct {
	Index   int
	Formula string
	Err     error
}

func (e *FormulaError) Error() string {
	return fmt.Sprintf("formula %d %s: %s", e.Index+1, text.Quote(e.Formula), api.OneLine(e.Err.Error()))
}

func (e *FormulaError) Unwrap() error { return e.Err }

// Run is the one code path of the modal and `chainwatch scan`: when g
// is not nil every formula is checked client-side first (a *FormulaError,
// nothing spent); then the POST. 204 (api.ErrNoData) is a success with no
// rows. Errors are returned as is (the caller uses DescribeError); the
// outcome still carries the scan, mode, columns and any Response, so a
// caller can show what was (not) spent. An empty mode is the client's.
func Run(ctx context.Context, c *api.Client, g *api.Grammar, s Scan, mode api.Mode, now time.Time) (Outcome, error) {
	if mode == "" && c != nil {
		mode = c.Mode()
	}
	out := Outcome{Scan: s.Clone(), Mode: mode, Columns: s.Columns(), At: now}
	if g != nil {
		for i, f := range s.Fields {
			if strings.TrimSpace(f.Formula) == "" {
				continue // the client's Validate says "is required", for every empty row at once
			}
			if _, err := g.Check(f.Formula); err != nil {
				return out, &FormulaError{Index: i, Formula: f.Formula, Err: err}
			}
		}
	}
	if c == nil {
		return out, errors.New("no connection to the service")
	}
	res, resp, err := c.CustomScan(ctx, s.Params(mode))
	out.Resp = resp
	switch {
	case errors.Is(err, api.ErrNoData):
		res, err = &api.ScanResult{}, nil
	case err != nil:
		return out, err
	}
	if len(res.Output) == 0 {
		res.Output = nil
	}
	out.Result = res
	out.Columns = ValueColumns(s, g, res.Output)
	return out, nil
}

// ValueColumns are the columns of s's results worth showing: the
// returned fields less the filters. A filter keeps only the rows where it
// holds, so its column would read "yes" all the way down and tell nothing;
// a table, a CSV or a JSON row shows the values a trader judges rows by.
// A field is a filter when the grammar g types its formula boolean, or,
// where g is nil (no field list) or does not know, when every value the
// rows hold for it is a boolean.
func ValueColumns(s Scan, g *api.Grammar, rows []api.ScanRow) []string {
	var cols []string
	for _, f := range s.Fields {
		if f.Included() && !isFilter(f, g, rows) {
			cols = append(cols, f.Key())
		}
	}
	return cols
}

func isFilter(f api.ScanFieldParam, g *api.Grammar, rows []api.ScanRow) bool {
	if g != nil {
		if info, err := g.Check(f.Formula); err == nil && info.Kind != 0 {
			return info.Kind == api.FormulaBool
		}
	}
	if len(rows) == 0 {
		return false
	}
	for _, r := range rows {
		if _, ok := r.Values[f.Key()].(bool); !ok {
			return false
		}
	}
	return true
}
