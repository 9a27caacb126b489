package alert

import (
	"cmp"
	"slices"
	"time"

	"chainwatch/api"
)

// ruleState is a rule and what the engine knows of it: armed or fired,
// the last value, the baseline of an IV30 move, a scan's last symbols.
type ruleState struct {
	Rule
	def   string // Describe: what the log's records of it say
	armed bool

	seen   bool
	last   float64
	lastAt time.Time

	base    float64 // iv30: the value the move is measured from
	baseDay api.Date
	baseSet bool

	scanSyms map[string]bool // scan: the symbols of its last run; nil before the first
	today    map[string]bool // unusual: the contracts fired on todayOf
	todayOf  api.Date

	fired     int
	lastFired time.Time
	problem   string
}

// newState is r armed, or as the log left it: a rule that fired and had
// not re-armed before a restart is still waiting to re-arm.
func (e *Engine) newState(r Rule) *ruleState {
	rs := &ruleState{Rule: r, def: r.Describe(), armed: true}
	if r.Kind.leveled() {
		rs.armed, _ = e.o.Log.Armed(r.Name, rs.def)
	}
	return rs
}

// index is the enabled rules by what they watch, so that a reply is
// matched against the few rules about it, not all of them: a chain of
// 20,000 contracts and a page of 10,000 prints are each one pass.
type index struct {
	bySym map[string]*symRules
	scans []*ruleState
}

// symRules are one underlying's rules.
type symRules struct {
	price, iv30 []*ruleState
	// contracts are the option-level rules by OSI symbol: levels,
	// unusual activity, blocks and sweeps of one contract.
	contracts map[string][]*ruleState
	unusual   []*ruleState // of any contract, by MinVolume
	// blocksBySize are the blocks with a size threshold, by it; the
	// others (a premium only) are blocksByPremium, by it.
	blocksBySize, blocksByPremium []*ruleState
	sweeps                        []*ruleState // of any contract
	contractSweeps                bool         // a sweep rule of one contract
	contractTrades                bool         // a block or sweep of one contract
}

// reindex builds the index of the enabled rules (under e.mu).
func (e *Engine) reindex() {
	idx := index{bySym: map[string]*symRules{}}
	for _, rs := range e.rules {
		if !rs.Enabled {
			continue
		}
		if rs.Kind == KindScan {
			idx.scans = append(idx.scans, rs)
			continue
		}
		sr := idx.bySym[rs.Symbol]
		if sr == nil {
			sr = &symRules{contracts: map[string][]*ruleState{}}
			idx.bySym[rs.Symbol] = sr
		}
		sr.add(rs)
	}
	for _, sr := range idx.bySym {
		slices.SortStableFunc(sr.unusual, func(a, b *ruleState) int { return cmp.Compare(a.MinVolume, b.MinVolume) })
		slices.SortStableFunc(sr.blocksBySize, func(a, b *ruleState) int { return cmp.Compare(a.MinSize, b.MinSize) })
		slices.SortStableFunc(sr.blocksByPremium, func(a, b *ruleState) int { return cmp.Compare(a.MinPremium, b.MinPremium) })
	}
	e.idx = idx
}

func (sr *symRules) add(rs *ruleState) {
	switch {
	case rs.Kind == KindPrice:
		sr.price = append(sr.price, rs)
	case rs.Kind == KindIV30:
		sr.iv30 = append(sr.iv30, rs)
	case rs.Contract != "":
		sr.contracts[rs.Contract] = append(sr.contracts[rs.Contract], rs)
		sr.contractTrades = sr.contractTrades || rs.Kind == KindBlock || rs.Kind == KindSweep
		sr.contractSweeps = sr.contractSweeps || rs.Kind == KindSweep
	case rs.Kind == KindUnusual:
		sr.unusual = append(sr.unusual, rs)
	case rs.Kind == KindBlock && rs.MinSize > 0:
		sr.blocksBySize = append(sr.blocksBySize, rs)
	case rs.Kind == KindBlock:
		sr.blocksByPremium = append(sr.blocksByPremium, rs)
	case rs.Kind == KindSweep:
		sr.sweeps = append(sr.sweeps, rs)
	}
}

// quotes reports whether sr has rules of the underlying's quote.
func (sr *symRules) quotes() bool { return len(sr.price) > 0 || len(sr.iv30) > 0 }

// options reports whether sr has rules of a chain's contracts.
func (sr *symRules) options() bool { return len(sr.contracts) > 0 || len(sr.unusual) > 0 }

// trades reports whether sr has rules of the tape.
func (sr *symRules) trades() bool {
	return len(sr.blocksBySize) > 0 || len(sr.blocksByPremium) > 0 || sr.anySweeps() || sr.contractTrades
}

// anySweeps reports whether sr has a sweep rule.
func (sr *symRules) anySweeps() bool { return len(sr.sweeps) > 0 || sr.contractSweeps }
