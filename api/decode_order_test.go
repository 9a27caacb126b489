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
type chainLayout struct{ reorder, shuffle, added, unknown bool }

// chainPayload writes c as the service would, each object's members:
//   - reorder: in one order of its own for every object (as a newer
//     version of the service might list them);
//   - shuffle: in an order drawn per object;
//   - added: with unknownFields at places drawn once, the same in every
//     object (members a newer version adds);
//   - unknown: with unknownFields at places drawn per object.
func chainPayload(tb testing.TB, c *SymbolWithOptions, l chainLayout, seed uint64) []byte {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	// Drawn once by member count: the contracts' and the chain's.
	orders, places := map[int][]int{}, map[int][]int{}
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
		if l.added || l.unknown {
			at, ok := places[len(members)]
			if !ok || l.unknown {
				at = make([]int, len(unknownFields))
				for k := range at {
					at[k] = rng.IntN(len(members) + k + 1)
				}
				places[len(members)] = at
			}
			for k, u := range unknownFields {
				members = append(members[:at[k]], append([]string{u}, members[at[k]:]...)...)
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
	{"added", chainLayout{added: true}},
	{"reordered+added", chainLayout{reorder: true, added: true}},
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
// each layout (see chainPayload). Target: shuffled and unknown members
// within 1.5x of the ordered time, with the same allocations per
// contract. "reordered" and "added" are what a service changes between
// versions: one other order, new members at one place, in every
// contract. "shuffled" and "unknown" draw the order and the places per
// contract, which no service does but which is the worst case.
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
