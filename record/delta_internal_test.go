package record

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// chainLike is a body shaped as a chain: n objects of figures.
func chainLike(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"symbol":"SPY","options":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"strike":%d,"timestamp":"11:30:%02d.000","bid":%.2f,"ask":%.2f,"iv":%g,"oi":%d}`,
			400+i, r.IntN(60), r.Float64()*300, r.Float64()*300, r.Float64(), r.IntN(100000))
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// mutate changes some of b's figures (to other lengths too), and with
// drop removes one object, so the tokens no longer line up.
func mutate(r *rand.Rand, b []byte, drop bool) []byte {
	out := append([]byte(nil), b...)
	for range 1 + r.IntN(40) {
		i := r.IntN(len(out))
		if c := out[i]; c >= '0' && c <= '9' {
			digits := []byte(fmt.Sprint(r.IntN(1000)))
			out = append(out[:i], append(digits, out[i+1:]...)...)
		}
	}
	if drop {
		start := bytes.Index(out[len(out)/2:], []byte(`{"strike"`)) + len(out)/2
		end := start + bytes.IndexByte(out[start:], '}') + 2
		out = append(out[:start], out[end:]...)
	}
	return out
}

// TestDiffPatchRebuildsTheBody: over drawn bodies and changes (figures
// of other lengths, an object dropped, bodies empty or cut), patching
// the base with diff's steps gives the body back whenever diff takes it;
// changed figures alone always fit.
func TestDiffPatchRebuildsTheBody(t *testing.T) {
	r := rand.New(rand.NewPCG(46, 2))
	for n := range 400 {
		base := chainLike(r, 1+r.IntN(60))
		drop := n%4 == 3
		cur := mutate(r, base, drop)
		switch n % 50 {
		case 10:
			cur = cur[:r.IntN(len(cur))]
		case 20:
			base = nil
		case 30:
			cur = append(cur, "]]}},:"...)
		}
		ops, ins, fits := diff(base, cur, nil, nil)
		if !fits {
			if !drop && n%50 != 20 {
				t.Fatalf("case %d: changed figures did not fit (%d of %d bytes inserted)", n, len(ins), len(cur))
			}
			continue
		}
		got, err := patch(nil, base, ops, ins)
		if err != nil || !bytes.Equal(got, cur) {
			t.Fatalf("case %d: patched %q, %v\nwant %q", n, got, err, cur)
		}
	}
}

// TestPatchOfDamagedStepsNeverPanics: steps with bytes changed or cut
// make patch fail or give a body (read checks it against its hash); it
// never reads past the base or the inserts.
func TestPatchOfDamagedStepsNeverPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(46, 3))
	base := chainLike(r, 30)
	ops, ins, fits := diff(base, mutate(r, base, false), nil, nil)
	if !fits {
		t.Fatal("no delta to damage")
	}
	failed := 0
	for n := range 2000 {
		o := append([]byte(nil), ops...)
		for range 1 + n%3 {
			o[r.IntN(len(o))] = byte(r.IntN(256))
		}
		if n%5 == 0 {
			o = o[:r.IntN(len(o))]
		}
		if _, err := patch(nil, base, o, ins); err != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("no damaged steps were found out")
	}
}
