package chain

import (
	"testing"

	"chainwatch/api"
	"chainwatch/model/modeltest"
)

// BenchmarkApplySnapshot20000 applies a new 20,000-contract snapshot onto a
// store that holds the previous one, flashes included: the budget is 10 ms.
func BenchmarkApplySnapshot20000(b *testing.B) {
	snaps := [2]*api.SymbolWithOptions{modeltest.SynthChain(40, 250, 1), modeltest.SynthChain(40, 250, 2)}
	var st chainStore
	st.applyFull(snaps[0], 1)
	st.applyFull(snaps[1], 2)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		st.applyFull(snaps[i%2], int64(i+3))
	}
}

// BenchmarkApplySnapshot20000Rebuild is the slow path for comparison: each
// snapshot lists one more strike per expiry than the store holds (new
// strikes listed), so every apply regroups the chain, still diffing
// against the old cells.
func BenchmarkApplySnapshot20000Rebuild(b *testing.B) {
	snaps := [2]*api.SymbolWithOptions{modeltest.SynthChain(40, 250, 1), modeltest.SynthChain(40, 249, 2)}
	var st chainStore
	st.applyFull(snaps[0], 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		st.applyFull(snaps[(i+1)%2], int64(i+2))
	}
}

// BenchmarkApplyExpiry polls one expiry of 500 contracts, as the screen
// does between whole chains.
func BenchmarkApplyExpiry(b *testing.B) {
	full := modeltest.SynthChain(40, 250, 1)
	one := [2]*api.SymbolWithOptions{modeltest.SynthChain(1, 250, 2), modeltest.SynthChain(1, 250, 3)}
	var st chainStore
	st.applyFull(full, 1)
	st.applyExpiry(modeltest.SynthDay, one[0], 2)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		st.applyExpiry(modeltest.SynthDay, one[i%2], int64(i+3))
	}
}
