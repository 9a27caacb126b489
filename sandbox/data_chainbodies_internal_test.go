package sandbox

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"weak"

	"chainwatch/api"
	"chainwatch/sandbox/wire"
)

func contracts(n int, strike float64) []api.OptionData {
	out := make([]api.OptionData, n)
	for i := range out {
		out[i] = api.OptionData{Root: "SPXW", Strike: strike + float64(i), OptionType: api.Call, Bid: api.Some(1.5)}
	}
	return out
}

// TestChainBodiesShareOneEncodingPerSlice: concurrent requests for one
// slice get one encoding, the bytes EncodeContracts gives; another slice
// or format is another entry; the oldest of three is let go.
func TestChainBodiesShareOneEncodingPerSlice(t *testing.T) {
	var c chainBodies
	a, b, d := contracts(5000, 100), contracts(5000, 200), contracts(5000, 300)
	got := make([][]byte, 8)
	held := make([]*chainBody, len(got)) // as replies in flight hold them
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			held[i] = c.get(api.JSON, a)
			got[i] = bytes.Join(held[i].parts, nil)
		})
	}
	wg.Wait()
	if !bytes.Equal(got[0], bytes.Join(wire.EncodeContracts(api.JSON, a), nil)) {
		t.Fatal("the shared encoding is not EncodeContracts'")
	}
	first := &held[0].parts[0][0]
	for _, h := range held[1:] {
		if &h.parts[0][0] != first {
			t.Fatal("a request of the same slice got an encoding of its own")
		}
	}
	if x := c.get(api.XML, a).parts; bytes.Equal(bytes.Join(x, nil), got[0]) {
		t.Fatal("XML served the JSON encoding")
	}
	if bb := c.get(api.JSON, b).parts; bytes.Equal(bytes.Join(bb, nil), got[0]) {
		t.Fatal("another chain served the first one's contracts")
	}
	c.get(api.JSON, d) // two entries since a's JSON: it is let go
	if again := c.get(api.JSON, a).parts; &again[0][0] == first {
		t.Fatal("the oldest entry was kept beyond chainBodiesKept")
	}
	runtime.KeepAlive(held)

	// Once no request holds an encoding and the collector has run, the
	// cache does not keep it.
	var weakOnly chainBodies
	e := weakOnly.get(api.JSON, a)
	gone := weak.Make(e)
	e = nil
	for i := 0; i < 5 && gone.Value() != nil; i++ {
		runtime.GC()
	}
	if gone.Value() != nil {
		t.Fatal("an encoding nobody writes is still held after collections")
	}
}

// TestChainBodiesDoNotKeepTheContracts: an entry, even one a reply still
// holds, does not keep alive the contracts it encoded; the market's cache
// decides how long a chain lives.
func TestChainBodiesDoNotKeepTheContracts(t *testing.T) {
	var c chainBodies
	a := contracts(5000, 100)
	held := c.get(api.JSON, a)
	gone := weak.Make(&a[0])
	a = nil
	for i := 0; i < 5 && gone.Value() != nil; i++ {
		runtime.GC()
	}
	if gone.Value() != nil {
		t.Fatal("the cache keeps the contracts of an encoding alive")
	}
	runtime.KeepAlive(held)
}
