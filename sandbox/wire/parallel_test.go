package wire

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"chainwatch/api"
)

// withProcs runs fn with GOMAXPROCS set to n.
func withProcs(n int, fn func() []byte) []byte {
	old := runtime.GOMAXPROCS(n)
	defer runtime.GOMAXPROCS(old)
	return fn()
}

// TestParallelChainMatchesSerial checks that the chunks of a parallel
// encoding join into the serial encoding's bytes: in place, after a prefix,
// and when chunks outgrow their regions.
func TestParallelChainMatchesSerial(t *testing.T) {
	u := testUnderlying()
	base := testChain(3*parallelChunk+sampleContracts+100, true) // three chunks on three cores
	long := strings.Repeat("x<&\"", 20_000)                      // longer than a chunk's spare room
	grow := func(from func(n int) int) func([]api.OptionData) {  // ten contracts longer than a chunk's spare room
		return func(o []api.OptionData) {
			for i := from(len(o)); i < from(len(o))+10; i++ {
				o[i].Option = long
			}
		}
	}
	cases := map[string]func([]api.OptionData){
		"in place":               func([]api.OptionData) {},
		"long in the sample":     func(o []api.OptionData) { o[5].Option = long; o[6].Root = long },
		"first chunk outgrows":   grow(func(int) int { return sampleContracts + 100 }),
		"middle chunk outgrows":  grow(func(n int) int { return n / 2 }),
		"last contracts outgrow": grow(func(n int) int { return n - 10 }),
		"every contract longer": func(o []api.OptionData) {
			for i := range o {
				o[i].Option = long[:100]
			}
		},
	}
	for name, mutate := range cases {
		opts := append([]api.OptionData(nil), base...)
		mutate(opts)
		for _, f := range []api.Format{api.JSON, api.XML} {
			prefix := []byte("HTTP body follows:")
			want := withProcs(1, func() []byte { return AppendChain(bytes.Clone(prefix), f, u, opts) })
			got := withProcs(3, func() []byte { return AppendChain(bytes.Clone(prefix), f, u, opts) })
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %v: parallel encoding differs from serial (%d vs %d bytes)", name, f, len(got), len(want))
			}
			spare := make([]byte, 0, 64<<20) // a roomy reused buffer
			if got := withProcs(2, func() []byte { return AppendChain(spare, f, u, opts) }); !bytes.Equal(got, want[len(prefix):]) {
				t.Errorf("%s, %v: into a reused buffer, parallel encoding differs", name, f)
			}
		}
	}
}
