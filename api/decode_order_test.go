package api

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// unknownFields are members of every JSON kind, escapes and nesting
// included, that a newer service might add: the decoder steps over them.
var unknownFields = []string{
	`"x_note":"a \"quoted\" \\ text \u00e9 \ud83d\ude00"`,
	`"x_ratio":-1.5e-7`,
	`"x_flag":true`,
	`"x_gone":null`,
	`"x_obj":{"a":[1,2,{"b":null}],"c":"d","e":{"f":[]}}`,
	`"x_list":[{"k":1},{"k":"v","w":[true,false]}]`,
}

// flatMembers splits a flat JSON object (scalar members only, as every
// object of a chain is) into its members' raw text, in order.
func flatMembers(tb testing.TB, obj []byte) []string {
	tb.Helper()
	d := json.NewDecoder(bytes.NewReader(obj))
	d.UseNumber()
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		tb.Fatalf("not an object: %v %v", tok, err)
	}
	var out []string
	for d.More() {
		k, err := d.Token()
		if err != nil {
			tb.Fatal(err)
		}
		v, err := d.Token()
		if err != nil {
			tb.Fatal(err)
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(v) // json.Number keeps the number's text
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, string(kb)+":"+string(vb))
	}
	return out
}

// chainLayout is how chainPayload writes an object's members.
type chainLayout struct{ reorder, shuffle, unknown bool }

// chainPayload writes c as the service would, each object's members in
// one order of its own when reorder is set (as a newer version of the
// service might), in an order drawn per object when shuffle is set, and
// with unknownFields at drawn places among them when unknown is set.
func chainPayload(tb testing.TB, c *SymbolWithOptions, l chainLayout, seed uint64) []byte {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	orders := map[int][]int{} // by member count: the contracts' and the chain's
	object := func(members []string) string {
		if l.reorder {
			perm, ok := orders[len(members)]
			if !ok {
				perm = rng.Perm(len(members))
				orders[len(members)] = perm
			}
			out := make([]string, len(members))
			for i, p := range perm {
				out[i] = members[p]
			}
			members = out
		}
		if l.shuffle {
			rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		}
		if l.unknown {
			for _, u := range unknownFields {
				at := rng.IntN(len(members) + 1)
				members = append(members[:at], append([]string{u}, members[at:]...)...)
			}
		}
		return "{" + strings.Join(members, ",") + "}"
	}
	marshal := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	opts := make([]string, len(c.Options))
	for i := range c.Options {
		opts[i] = object(flatMembers(tb, marshal(&c.Options[i])))
	}
	top := append(flatMembers(tb, marshal(&c.Underlying)), `"options":[`+strings.Join(opts, ",")+`]`)
	return []byte(object(top))
}

var chainLayouts = []struct {
	name   string
	layout chainLayout
}{
	{"ordered", chainLayout{}},
	{"reordered", chainLayout{reorder: true}},
	{"reordered+unknown", chainLayout{reorder: true, unknown: true}},
	{"shuffled", chainLayout{shuffle: true}},
	{"unknown", chainLayout{unknown: true}},
	{"shuffled+unknown", chainLayout{shuffle: true, unknown: true}},
}

// TestDecodeChainAnyMemberOrder: the chain decodes to the same value
// whatever the order of each object's members and whatever unknown
// members stand among them; the ordered layout is the standard library's
// own encoding, byte for byte.
func TestDecodeChainAnyMemberOrder(t *testing.T) {
	c := genChain(3000, 5)
	ordered := chainPayload(t, c, chainLayout{}, 1)
	if std, _ := json.Marshal(c); !bytes.Equal(ordered, std) {
		t.Fatal("the ordered layout is not encoding/json's")
	}
	want, err := decodeChain(ordered, JSON)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range chainLayouts[1:] {
		got, err := decodeChain(chainPayload(t, c, l.layout, 1), JSON)
		if err != nil {
			t.Fatalf("%s: %v", l.name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: decodes to another chain", l.name)
		}
	}
}

// BenchmarkDecodeChainMemberOrder decodes the 20,000-contract chain in
// each layout. Target: shuffled and unknown members within 1.5x of the
// ordered time, with the same allocations per contract. "reordered" is
// one order other than the table's for every contract (a service's own
// order, or a field moved by a newer version); "shuffled" draws an order
// per contract, which no service does but which is the worst case.
//
//	go test -run '^$' -bench DecodeChainMemberOrder -benchmem ./api
func BenchmarkDecodeChainMemberOrder(b *testing.B) {
	c := genChain(20000, 1)
	for _, l := range chainLayouts {
		payload := chainPayload(b, c, l.layout, 1)
		b.Run(l.name, func(b *testing.B) {
			b.SetBytes(int64(len(payload)))
			b.ReportAllocs()
			for b.Loop() {
				got, err := decodeChain(payload, JSON)
				if err != nil || len(got.Options) != 20000 {
					b.Fatal(err)
				}
			}
			b.ReportMetric(testing.AllocsPerRun(1, func() { decodeChain(payload, JSON) })/20000, "allocs/contract")
		})
	}
}

// TestDecodeChainSameCostAnyLayout: whatever the order of members and
// whatever unknown members (nested objects included) a chain carries, it
// decodes with the allocations of the ordered layout, and reserves room
// for about its contracts, not for the objects nested in them.
func TestDecodeChainSameCostAnyLayout(t *testing.T) {
	c := genChain(3000, 5)
	var want float64
	for i, l := range chainLayouts {
		payload := chainPayload(t, c, l.layout, 1)
		got, err := decodeChain(payload, JSON)
		if err != nil {
			t.Fatalf("%s: %v", l.name, err)
		}
		if n := len(got.Options); n != len(c.Options) || cap(got.Options) > n*13/10 {
			t.Errorf("%s: %d contracts in room for %d", l.name, n, cap(got.Options))
		}
		allocs := testing.AllocsPerRun(3, func() { decodeChain(payload, JSON) })
		if i == 0 {
			want = allocs
		} else if allocs != want {
			t.Errorf("%s: %v allocations, the ordered layout %v", l.name, allocs, want)
		}
	}
}
