package record

import (
	"slices"
	"strings"

	"chainwatch/api"
)

// Recorded is one recorded answer with its body, as Each hands it over.
type Recorded struct {
	api.Answer
	Symbol string
	Format api.Format // the body's format, from the request's key
}

// Each hands fn every answer of the day with its body, in time order;
// an answer whose body is damaged is skipped (and counted in skipped).
func (d *Day) Each(fn func(r Recorded) error) (skipped int, err error) {
	var all []entry
	for _, list := range d.byKey {
		all = append(all, list...)
	}
	slices.SortStableFunc(all, func(a, b entry) int {
		if a.At != b.At {
			return compareInt(a.At, b.At)
		}
		return compareInt(int64(a.seq), int64(b.seq))
	})
	for _, e := range all {
		body, err := d.body(e.meta)
		if err != nil {
			skipped++
			continue
		}
		f := api.JSON
		if strings.HasPrefix(e.Key, "application/xml") {
			f = api.XML
		}
		a := answerOf(e.meta, body)
		if err := fn(Recorded{Answer: a, Symbol: e.Symbol, Format: f}); err != nil {
			return skipped, err
		}
	}
	return skipped, nil
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
