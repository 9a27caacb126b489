package text

// Nearest is the word in known closest to w by edit distance (a letter
// added, dropped, changed or two swapped), for "did you mean"; "" when
// none is within two edits. known is in order of preference, which breaks
// ties. A symbol, a formula's field and a config key are suggested so.
func Nearest(w string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if k == w {
			continue
		}
		if d := editDistance(w, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b (ASCII
// words): insertions, deletions, substitutions and adjacent swaps.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
