package pricing

import "math"

// The bivariate normal distribution that Bjerksund-Stensland 2002 needs.
//
// Its two-period formula asks only for the correlations +rho2002 and
// -rho2002, rho2002 = sqrt(t1/T) with t1 the golden-section split of the
// expiry, whatever the option. So the distribution is written for one
// fixed correlation at a time (bvn), with everything that depends on the
// correlation alone worked out once: each evaluation is then a sum of
// exponentials and two NormCDF, without the arcsine and sines of a general
// bivariate normal.

// rho2002 is the correlation of the two periods of Bjerksund-Stensland
// 2002: t1 = (sqrt(5)-1)/2 * T, so t1/T is the golden ratio's inverse.
var rho2002 = math.Sqrt((math.Sqrt(5) - 1) / 2)

// bvnNodes is the order of the Gauss-Legendre rule of bvn. Genz (2004)
// takes 20 nodes for any correlation between 0.75 and 0.925; at the one
// correlation needed here 10 give the probability to 2e-13 and its
// derivatives to 1e-11 (the tests compare them with a finer integration),
// which moves no price by more than 1e-10 of the strike.
const bvnNodes = 10

// bvn is the upper bivariate normal probability P(X > h, Y > k) for one
// correlation r, |r| < 0.925, by Genz's form of Plackett's identity
// (Genz 2004, "Numerical computation of rectangular bivariate and
// trivariate normal and t probabilities"):
//
//	P(X > h, Y > k; r) = N(-h) N(-k)
//	    + 1/(2 pi) * integral over t in [0, asin r] of
//	      exp(-(h^2 + k^2 - 2 hk sin t) / (2 cos^2 t)) dt
//
// with the integral by a Gauss-Legendre rule. Per node: a = sin t / cos^2 t,
// c = 1 / cos^2 t and the weight times asin(r) / (4 pi).
type bvn struct {
	a, c, w [bvnNodes]float64
	r       float64
}

// newBVN prepares the distribution for correlation r, |r| < 0.925.
func newBVN(r float64, nodes, weights []float64) bvn {
	d := bvn{r: r}
	asr := math.Asin(r)
	for i, x := range nodes {
		sn := math.Sin(asr * (x + 1) / 2)
		c := 1 / (1 - sn*sn)
		d.a[i], d.c[i], d.w[i] = sn*c, c, weights[i]*asr/(4*math.Pi)
	}
	return d
}

// arg is an argument of bvn with its normal probabilities: N(-h) and n(h).
type arg struct {
	j    jet
	N, n float64
}

func newArg(h jet) arg { return arg{h, NormCDF(-h.v), NormPDF(h.v)} }

// upper is P(X > h, Y > k) (h with its normal probabilities), with its derivatives along those of h and k.
// The quadrature's sum is differentiated term by term (each term is
// exp(a hk - c (h^2 + k^2)/2)), so the derivatives cost no exponential
// beyond the value's and are exactly those of the value computed. The sum
// is skipped when its largest term is below 1e-16: its exponent is at most
// -(h^2 + k^2)/2 + |r hk|.
func (d *bvn) upper(ha *arg, k jet) jet {
	h := &ha.j
	kN, kn := NormCDF(-k.v), NormPDF(k.v)
	p, ph, pk := ha.N*kN, -ha.n*kN, -ha.N*kn
	phh, pkk, phk := h.v*ha.n*kN, ha.N*k.v*kn, ha.n*kn
	hk, hs := h.v*k.v, (h.v*h.v+k.v*k.v)/2
	if hs-math.Abs(d.r*hk) <= 37 {
		for i := range d.a {
			a, c := d.a[i], d.c[i]
			e := d.w[i] * math.Exp(a*hk-c*hs)
			qh, qk := a*k.v-c*h.v, a*h.v-c*k.v
			p += e
			ph += e * qh
			pk += e * qk
			phh += e * (qh*qh - c)
			pkk += e * (qk*qk - c)
			phk += e * (qh*qk + a)
		}
	}
	return jet{
		v:  p,
		x:  ph*h.x + pk*k.x,
		xx: ph*h.xx + pk*k.xx + phh*h.x*h.x + 2*phk*h.x*k.x + pkk*k.x*k.x,
		s:  ph*h.s + pk*k.s,
		r:  ph*h.r + pk*k.r,
		t:  ph*h.t + pk*k.t,
	}
}

// upperValue is upper's value alone: P(X > h, Y > k), given hN = N(-h).
func (d *bvn) upperValue(h, hN, k float64) float64 {
	p := hN * NormCDF(-k)
	hk, hs := h*k, (h*h+k*k)/2
	if hs-math.Abs(d.r*hk) <= 37 {
		for i := range d.a {
			p += d.w[i] * math.Exp(d.a[i]*hk-d.c[i]*hs)
		}
	}
	return p
}

// The two distributions of Bjerksund-Stensland 2002.
var bvnPlus, bvnMinus = func() (bvn, bvn) {
	x, w := gaussLegendre(bvnNodes)
	return newBVN(rho2002, x, w), newBVN(-rho2002, x, w)
}()

// gaussLegendre returns the n nodes on [-1, 1] and weights of the
// Gauss-Legendre rule, by Newton's method on the Legendre polynomial from
// the usual cosine guesses (Numerical Recipes' gauleg).
func gaussLegendre(n int) (x, w []float64) {
	x, w = make([]float64, n), make([]float64, n)
	for i := range (n + 1) / 2 {
		z := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		var dp float64
		for range 100 {
			p0, p1 := 1.0, 0.0
			for j := 1; j <= n; j++ { // P_j by the three-term recurrence
				p0, p1 = ((2*float64(j)-1)*z*p0-(float64(j)-1)*p1)/float64(j), p0
			}
			dp = float64(n) * (z*p0 - p1) / (z*z - 1)
			step := p0 / dp
			z -= step
			if math.Abs(step) < 1e-16 {
				break
			}
		}
		x[i], x[n-1-i] = -z, z
		w[i] = 2 / ((1 - z*z) * dp * dp)
		w[n-1-i] = w[i]
	}
	return x, w
}
