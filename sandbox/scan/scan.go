package scan

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"chainwatch/api"
)

// Limits of a scan, api's: the client refuses what the sandbox would.
const (
	MaxFields        = api.MaxScanFields    // fields per scan
	MaxFormulaLength = api.MaxFormulaLength // characters (runes) per formula
)

// FormulaError is a formula that cannot be compiled: it does not parse,
// names an unknown field or function, steps outside the grammar, mixes
// types, or is too long or too complex. The server answers it with 400.
type FormulaError struct {
	Index   int    // zero-based position of the field in the request
	Formula string // the formula as sent
	Msg     string // one line, without the formula
}

// Error is one line naming the field and its formula (shortened when long),
// e.g. fields[0].formula "iv31 > 40": unknown field iv31.
func (e *FormulaError) Error() string {
	return fmt.Sprintf("fields[%d].formula %q: %s", e.Index, clip(e.Formula, 80), oneLine(e.Msg))
}

// ParamError is a broken rule of the request that is not about what a
// formula says: no fields, too many, a missing formula, an unknown sort, a
// duplicate output key. Error is one line in the form of the client's
// ValidationError, e.g. fields[1].sort must be one of asc, desc, none, not "up".
type ParamError struct {
	Param string // e.g. fields or fields[3].display_name
	Rule  string
}

func (e *ParamError) Error() string { return e.Param + " " + oneLine(e.Rule) }

// clip shortens s to n runes for a message.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// oneLine flattens s to a single line: error bodies are one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// column is one field of a scan, compiled.
type column struct {
	*formula
	key     string
	include bool
	sort    api.SortOrder // SortAsc, SortDesc, or "" (none)
}

// Scan is a compiled request: immutable, so one Scan may Run concurrently.
type Scan struct {
	inputs  []api.ScanFieldParam
	cols    []column
	filters []int    // indexes into cols of the boolean formulas
	values  []int    // indexes into cols of the others
	sorts   []int    // indexes into cols to sort by, in the request's order
	fields  []*field // every field some formula names, each once
}

// Compile validates a scan's fields and compiles their formulas, without a
// cache (see Compiler). It applies the rules of the client's
// api.ScanParams.Validate and returns the first broken one, as a
// *ParamError or a *FormulaError, whose Error is one line naming the field.
func Compile(params []api.ScanFieldParam) (*Scan, error) {
	return compile(params, compileFormula)
}

// Compiler compiles scans with a bounded cache of formulas by their text:
// traders re-run the same screen every few seconds, and compiling is the
// costly part of a scan over a hundred rows. Safe for concurrent use.
type Compiler struct {
	mu    sync.Mutex
	max   int
	cache map[string]*formula
	fifo  []string // insertion order; the oldest entry goes first
	next  int      // oldest entry of fifo once it is full
}

// NewCompiler returns a Compiler that keeps at most entries formulas
// (at least 1; 0 means 1024).
func NewCompiler(entries int) *Compiler {
	if entries <= 0 {
		entries = 1024
	}
	return &Compiler{max: entries, cache: make(map[string]*formula, entries)}
}

// Compile is the package's Compile through the cache.
func (c *Compiler) Compile(params []api.ScanFieldParam) (*Scan, error) {
	return compile(params, c.formula)
}

func (c *Compiler) formula(src string) (*formula, error) {
	c.mu.Lock()
	f, ok := c.cache[src]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	f, err := compileFormula(src)
	if err != nil {
		return nil, err // failures are not cached: they are cheap and rare
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.cache[src]; ok {
		return f, nil
	}
	if len(c.fifo) < c.max {
		c.fifo = append(c.fifo, src)
	} else {
		delete(c.cache, c.fifo[c.next])
		c.fifo[c.next] = src
		c.next = (c.next + 1) % c.max
	}
	c.cache[src] = f
	return f, nil
}

// reservedKeys are the keys every output row carries: a field output under
// one of them would be overwritten by the row's own (or overwrite it).
var reservedKeys = map[string]bool{"symbol": true, "company_name": true}

func compile(params []api.ScanFieldParam, formulaOf func(string) (*formula, error)) (*Scan, error) {
	switch {
	case len(params) == 0:
		return nil, &ParamError{"fields", "is required: at least one field"}
	case len(params) > MaxFields:
		return nil, &ParamError{"fields", fmt.Sprintf("must have at most %d entries, not %d", MaxFields, len(params))}
	}
	s := &Scan{inputs: append([]api.ScanFieldParam(nil), params...)}
	keys := make(map[string]int, len(params))
	seen := make(map[*field]bool)
	for i, p := range params {
		name := fmt.Sprintf("fields[%d]", i)
		if strings.TrimSpace(p.Formula) == "" {
			return nil, &ParamError{name + ".formula", "is required"}
		}
		sort := p.Sort
		switch sort {
		case api.SortNone, "":
			sort = ""
		case api.SortAsc, api.SortDesc:
		default:
			return nil, &ParamError{name + ".sort", fmt.Sprintf("must be one of asc, desc, none, not %q", clip(string(p.Sort), 40))}
		}
		if p.Included() {
			if err := checkKey(name, p, i, keys); err != nil {
				return nil, err
			}
		}
		f, err := formulaOf(p.Formula)
		if err != nil {
			return nil, &FormulaError{Index: i, Formula: p.Formula, Msg: err.Error()}
		}
		s.cols = append(s.cols, column{formula: f, key: p.Key(), include: p.Included(), sort: sort})
		if f.kind == api.FormulaBool {
			s.filters = append(s.filters, i)
		} else {
			s.values = append(s.values, i)
		}
		if sort != "" {
			s.sorts = append(s.sorts, i)
		}
		for _, fd := range f.fields {
			if !seen[fd] {
				seen[fd] = true
				s.fields = append(s.fields, fd)
			}
		}
	}
	return s, nil
}

// checkKey refuses a returned field whose output key another returned
// field already has (one would overwrite the other in every row), or that
// is symbol or company_name for anything but that very field.
func checkKey(name string, p api.ScanFieldParam, i int, keys map[string]int) error {
	key := p.Key()
	if reservedKeys[key] && p.Formula != key {
		return &ParamError{name + ".display_name", fmt.Sprintf("%q is the name of every row's own %s: choose another", key, key)}
	}
	if j, dup := keys[key]; dup {
		if p.DisplayName != "" {
			return &ParamError{name + ".display_name", fmt.Sprintf("%q is already the name of fields[%d]", clip(p.DisplayName, 40), j)}
		}
		return &ParamError{name + ".display_name", fmt.Sprintf("is required: the formula %q is already the name of fields[%d]", clip(p.Formula, 40), j)}
	}
	keys[key] = i
	return nil
}
