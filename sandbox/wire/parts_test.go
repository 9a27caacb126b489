package wire

import (
	"bytes"
	"testing"

	"chainwatch/api"
)

// TestChainPartsAreAppendChain: head, contracts and tail joined are the
// bytes AppendChain writes, in both formats, for an empty, a small and a
// chain large enough to be encoded in parallel.
func TestChainPartsAreAppendChain(t *testing.T) {
	for _, f := range []api.Format{api.JSON, api.XML} {
		for _, n := range []int{0, 1, 3, 9000} {
			u, options := testUnderlying(), testChain(n, false)
			if n == 0 {
				options = nil
			}
			want := AppendChain(nil, f, u, options)
			got := AppendChainHead(nil, f, u)
			if len(options) > 0 {
				got = append(got, bytes.Join(EncodeContracts(f, options), nil)...)
			}
			got = append(got, ChainTail(f)...)
			if !bytes.Equal(got, want) {
				t.Fatalf("%v, %d contracts: the parts differ from AppendChain at byte %d of %d", f, n, firstDiff(got, want), len(want))
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
