package market

import (
	"math"
	"sync"
)

// Brownian motions by the Levy (dyadic bridge) construction.
//
// A path W over the day numbers [0, 2^16] is defined by one standard normal
// per dyadic node, drawn from a hash of (path key, node): W(2^16) is the
// top node, and the value at the midpoint m of a dyadic interval [a, b]
// is the Brownian bridge (W(a)+W(b))/2 + sqrt((b-a)/4) Z(m). Reaching any
// day descends at most 16 levels, so W(n) costs O(log n) with no
// cumulative state: the close of 2003-05-14 is as cheap as yesterday's,
// needs no earlier day, and is the same on every run. The joint law of
// the values is exactly that of a Brownian motion sampled at integer days.
// A walk keeps its top 10 levels (8 KB) so a lookup draws only 6 nodes.
//
// Time is measured in years (ACT/365.25), so W(n) has variance n/365.25
// and a loading of sigma on W is an annualised volatility.

// levelSD[k] is the bridge standard deviation at a node whose interval
// has length 2^(16-k) days: sqrt(len/4/365.25). levelSD[0] is the top
// node's sqrt(2^16/365.25).
var levelSD = func() (s [17]float64) {
	s[0] = math.Sqrt(horizon / 365.25)
	for k := 1; k <= 16; k++ {
		length := float64(int(horizon) >> (k - 1))
		s[k] = math.Sqrt(length / 4 / 365.25)
	}
	return s
}()

// gridLevels is how many levels of the tree a walk keeps: its values at
// every 64th day (1,025 numbers), so that reaching a day descends only the
// last 6 levels. The kept values are the same the full descent gives.
const (
	gridLevels = 10
	gridStep   = horizon >> gridLevels
)

// walk is one Brownian path W of the Levy construction, named by its key.
type walk struct {
	key  uint64
	grid []float64 // W at every gridStep days, 0 to horizon
}

// newWalk draws the kept levels of a path.
func newWalk(key uint64) *walk {
	w := &walk{key: key, grid: make([]float64, horizon/gridStep+1)}
	w.grid[len(w.grid)-1] = levelSD[0] * normal(key, horizon)
	var fill func(a, b int, k int)
	fill = func(a, b int, k int) {
		if b-a <= gridStep {
			return
		}
		m := (a + b) / 2
		wa, wb := w.grid[a/gridStep], w.grid[b/gridStep]
		w.grid[m/gridStep] = (wa+wb)/2 + levelSD[k]*normal(key, uint64(m))
		fill(a, m, k+1)
		fill(m, b, k+1)
	}
	fill(0, horizon, 1)
	return w
}

// at returns W(n). Days before 2000-01-01 are W(0) = 0 and days past the
// horizon are W(2^16): flat, never an error.
func (w *walk) at(n int) float64 {
	if n <= 0 {
		return 0
	}
	if n >= horizon {
		return w.grid[len(w.grid)-1]
	}
	i := n / gridStep
	a, b := i*gridStep, (i+1)*gridStep
	wa, wb := w.grid[i], w.grid[i+1]
	for k := gridLevels + 1; ; k++ {
		switch n {
		case a:
			return wa
		case b:
			return wb
		}
		m := (a + b) / 2
		wm := (wa+wb)/2 + levelSD[k]*normal(w.key, uint64(m))
		if n < m {
			b, wb = m, wm
		} else {
			a, wa = m, wm
		}
	}
}

// walks holds the paths of a universe by key, each drawn when a model
// first needs it. It is safe for concurrent use.
type walks struct {
	mu sync.Mutex
	m  map[uint64]func() *walk
}

// get returns the path of key, drawing it on first use.
func (ws *walks) get(key uint64) *walk {
	ws.mu.Lock()
	w, ok := ws.m[key]
	if !ok {
		w = sync.OnceValue(func() *walk { return newWalk(key) })
		ws.m[key] = w
	}
	ws.mu.Unlock()
	return w()
}

// squash bounds a log vol multiplier smoothly: nearly the identity near
// zero, at most +1.2 (vol x3.3) and at least -0.7 (vol x0.5), so that no
// draw of the walk can give a 2 % or a 300 % ATM vol.
func squash(x float64) float64 {
	if x >= 0 {
		return 1.2 * math.Tanh(x/1.2)
	}
	return 0.7 * math.Tanh(x/0.7)
}
